// exit() called by a rank ends that rank only, as it would end one process of a real MPI job;
// the simulation of the other ranks goes on. Outside a rank, exit() is the C library's.
#include <dlfcn.h>

#include <cstdlib>

#include "world.hpp"

extern "C" void exit(int status) noexcept {
  mpilite::World* w = mpilite::World::try_get();
  if (w && w->in_rank()) w->exit_rank(status);
  using ExitFn = void (*)(int);
  static const auto libc_exit = reinterpret_cast<ExitFn>(dlsym(RTLD_NEXT, "exit"));
  libc_exit(status);
  __builtin_unreachable();
}
