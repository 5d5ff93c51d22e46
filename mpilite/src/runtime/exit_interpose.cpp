// exit() called by a rank ends that rank only, as it would end one process of a real MPI job;
// the simulation of the other ranks goes on, and the handlers a rank registered with atexit()
// run when it ends, in the rank, on its own globals. Outside a rank both are the C library's.
#include <dlfcn.h>

#include <cxxabi.h>

#include <cstdlib>

#include "world.hpp"

// The C library's atexit() is this, linked into each program (libc_nonshared.a).
extern "C" void* __dso_handle;

// The program's own calls: the C++ runtime registers its destructors with __cxa_atexit directly.
extern "C" int atexit(void (*handler)()) noexcept {
  mpilite::World* w = mpilite::World::try_get();
  if (w && w->in_rank_on_this_thread()) {
    w->at_rank_exit(handler);
    return 0;
  }
  return abi::__cxa_atexit(reinterpret_cast<void (*)(void*)>(handler), nullptr, __dso_handle);
}

extern "C" void exit(int status) noexcept {
  mpilite::World* w = mpilite::World::try_get();
  if (w && w->in_rank_on_this_thread()) w->exit_rank(status);
  using ExitFn = void (*)(int);
  static const auto libc_exit = reinterpret_cast<ExitFn>(dlsym(RTLD_NEXT, "exit"));
  libc_exit(status);
  __builtin_unreachable();
}
