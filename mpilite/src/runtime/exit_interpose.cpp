// exit() called by a rank ends that rank only, as it would end one process of a real MPI job;
// the simulation of the other ranks goes on, and the handlers a rank registered with atexit()
// or on_exit() run when it ends, in the rank, on its own globals. _exit(), _Exit() and
// quick_exit() end the rank too, without its handlers (quick_exit() runs no at_quick_exit()
// handler either). Outside a rank all of them are the C library's.
#include <cxxabi.h>

#include <cstdlib>

#include "interposed.hpp"
#include "world.hpp"

// The C library's atexit() is this, linked into each program (libc_nonshared.a).
extern "C" void* __dso_handle;

// The program's own calls: the C++ runtime registers its destructors with __cxa_atexit directly.
extern "C" int atexit(void (*handler)()) noexcept {
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (w) {
    w->at_rank_exit({handler, nullptr, nullptr});
    return 0;
  }
  return abi::__cxa_atexit(reinterpret_cast<void (*)(void*)>(handler), nullptr, __dso_handle);
}

// glibc's on_exit(): the handler also gets the exit status and an argument. Left to the C
// library, a rank's handler ran at the host process's end, after the ranks' globals were gone.
extern "C" int on_exit(void (*handler)(int, void*), void* arg) noexcept {
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (w) {
    w->at_rank_exit({nullptr, handler, arg});
    return 0;
  }
  static const auto libc_on_exit =
      mpilite::next_symbol<int (*)(void (*)(int, void*), void*)>("on_exit");
  return libc_on_exit(handler, arg);
}

extern "C" void exit(int status) noexcept {
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (w) w->exit_rank(status);
  static const auto libc_exit = mpilite::next_symbol<void (*)(int)>("exit");
  libc_exit(status);
  __builtin_unreachable();
}

namespace {

/// _exit(), _Exit() or quick_exit() (`name`, the C library's): the calling rank ends without its
/// handlers; outside a rank, the process does.
[[noreturn]] void exit_at_once(const char* name, int status) {
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (w) w->exit_rank(status, mpilite::World::RankExit::Immediate);
  const auto libc_exit = mpilite::next_symbol<void (*)(int)>(name);
  libc_exit(status);
  __builtin_unreachable();
}

} // namespace

extern "C" void _exit(int status) {
  exit_at_once("_exit", status);
}

extern "C" void _Exit(int status) noexcept {
  exit_at_once("_Exit", status);
}

extern "C" void quick_exit(int status) noexcept {
  exit_at_once("quick_exit", status);
}
