// The simulator's main(): reads the settings, runs the target program's main once per rank on
// its own fiber, prints the report and exits with the run's exit code.
#include <unistd.h>

#include <cstdio>

#include "simulator_main.hpp"

// The target program's main, renamed by mpi.h. It is C (unmangled) or C++ with one of the three
// signatures C++ allows; whichever the program defines is non-null.
extern "C" int mpisim_c_main(int, char**, char**) __asm__("mpisim_user_main") __attribute__((weak));
int mpisim_user_main() __attribute__((weak));
int mpisim_user_main(int, char**) __attribute__((weak));
int mpisim_user_main(int, char**, char**) __attribute__((weak));

extern char** environ;

namespace {

mpilite::World::Main user_main() {
  if (mpisim_c_main)
    return [](int argc, char** argv) { return mpisim_c_main(argc, argv, environ); };
  int (*cxx3)(int, char**, char**) = &mpisim_user_main;
  int (*cxx2)(int, char**) = &mpisim_user_main;
  int (*cxx0)() = &mpisim_user_main;
  if (cxx3) return [cxx3](int argc, char** argv) { return cxx3(argc, argv, environ); };
  if (cxx2) return cxx2;
  if (cxx0) return [cxx0](int, char**) { return cxx0(); };
  return nullptr;
}

} // namespace

int main(int argc, char** argv) {
  const auto program = user_main();
  if (!program) {
    std::fprintf(stderr, "mpisim: the program has no main() compiled against mpisim's mpi.h; "
                         "include <mpi.h> in the file that defines main and build with mpisimcc\n");
    return 2;
  }
  return mpisim::simulate_main(program, argc, argv, "mpisim");
}

// Referenced by mpisimcc's link line so that this object (and its main) is always linked.
extern "C" const int mpisim_runtime_main_anchor = 1;
