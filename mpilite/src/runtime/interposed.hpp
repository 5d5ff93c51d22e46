// How the runtime's interposed functions (exit, getopt, chdir, setenv, RANDOM_NUMBER, the
// Fortran I/O statements, ...) reach the ones they stand in front of.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#include "world.hpp"

namespace mpilite {

/// The next definition of `name` after the runtime's: the C library's. The run stops with a
/// message if there is none.
template <class Fn> Fn next_symbol(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) {
    std::fprintf(stderr, "mpisim: the C library has no %s\n", name);
    std::abort();
  }
  return reinterpret_cast<Fn>(f);
}

/// libgfortran's own `name`; the run stops with a message if libgfortran is not loaded. The
/// library is loaded with the program's copies, outside the executable's scope (loader_main.cpp),
/// so it is reached by its name, not by RTLD_NEXT.
void* libgfortran_symbol(const char* name);

/// libgfortran's own definition of the entry point `Self` interposes, named `name`: found once.
template <auto Self> decltype(Self) libgfortran_own(const char* name) {
  static const auto f = reinterpret_cast<decltype(Self)>(libgfortran_symbol(name));
  return f;
}

/// Ends the run if the program's own code in a rank other than 0 reads the standard input with
/// `call` (stdin_interpose.cpp): under mpiexec it is rank 0's alone.
void only_rank_zero_reads(const char* call);

/// The world when the calling code is the program's own: a rank's, outside MPI calls. The
/// simulator's calls, MPI's, and the user callbacks MPI runs get the C library's answers.
inline World* programs_world() {
  World* w = World::of_calling_rank();
  return w && w->self().call_depth == 0 ? w : nullptr;
}

} // namespace mpilite
