// The C library's per-process state that programs use per rank: in a real MPI run every rank
// is a process with its own errno, getopt position, random generators and strtok position (and
// the C++ runtime's exceptions being handled).
//
// Two kinds. The few globals the C library keeps in plain variables (errno, optind, optarg,
// opterr, optopt) are saved and restored with the fiber on every switch (a handful of loads
// and stores). The generators and strtok keep hidden state inside the C library: their
// functions are interposed (libc_interpose.cpp) and run glibc's own reentrant versions on a
// state of the rank's, so a rank's sequence equals a native process's for the same seed.
#pragma once

#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cxxabi.h>
#include <memory>
#include <vector>

namespace mpilite {

/// The C++ runtime's record of the exceptions a thread is handling: the Itanium C++ ABI's
/// __cxa_eh_globals, the chain that `throw;` rethrows the head of and the count that
/// std::uncaught_exceptions() returns. The ranks share one thread: a rank that called MPI inside
/// a catch block rethrew another rank's exception, or one already freed. Switched with the fiber
/// where the program catches exceptions (exceptions_caught()).
struct CxxExceptions {
  void* caught = nullptr;
  unsigned int uncaught = 0;
};

/// The running thread's record (a call into the C++ runtime: found once per thread).
inline CxxExceptions* this_threads_exceptions() {
  return reinterpret_cast<CxxExceptions*>(abi::__cxa_get_globals());
}

/// The C library globals switched with the fiber; a new rank starts as a new process does.
struct LibcRegisters {
  int err = 0;
  int optind = 1;
  int opterr = 1;
  int optopt = '?';
  char* optarg = nullptr;
  CxxExceptions exceptions;
};

// `err` is errno's location, found once per thread (errno is a call into the C library).
inline void save_libc(LibcRegisters& r, const int* err) {
  r.err = *err;
  r.optind = ::optind;
  r.opterr = ::opterr;
  r.optopt = ::optopt;
  r.optarg = ::optarg;
}

inline void load_libc(const LibcRegisters& r, int* err) {
  *err = r.err;
  ::optind = r.optind;
  ::opterr = r.opterr;
  ::optopt = r.optopt;
  ::optarg = r.optarg;
}

/// State the C library hides in its own statics, kept per rank by the interposed functions.
/// Built on a rank's first call of one of them.
struct LibcHidden {
  LibcHidden();
  ~LibcHidden();
  LibcHidden(const LibcHidden&) = delete;
  LibcHidden& operator=(const LibcHidden&) = delete;
  // rand/random: glibc's TYPE_3 generator, set up as glibc sets up its own (initstate(1) on a
  // 128-byte table) so that a rank that never seeds gets the native sequence.
  random_data random{};
  std::int32_t random_table[32]{};
  // drand48 family: zero is glibc's initial state (the multiplier is set on first use).
  drand48_data rand48{};
  char* strtok_next = nullptr;
  /// The rank's working directory once it changed it (chdir, fchdir), open (O_PATH); -1: the
  /// host process's, where every rank starts. Put in place when the rank runs
  /// (Scheduler::enter_directory).
  int dir = -1;
  /// The rank's state of gfortran's RANDOM_NUMBER generator, made by libgfortran on the rank's
  /// first use (fortran_random.cpp); null until then. Put in place when the rank runs.
  void* fortran_random = nullptr;
  /// The rank's environment once it changed it (setenv, putenv, unsetenv, clearenv): an array of
  /// its own (rank_environment.cpp); null until then, when it reads the host process's.
  char** environment = nullptr;
  /// The "NAME=value" strings setenv made for the rank, in its array or replaced since.
  std::vector<char*> environment_strings;
};

/// The format state of one C++ standard stream (std::cout, std::cerr, std::clog), kept per rank
/// as a process has its own: a rank that sets `std::cout << std::scientific` changes no other
/// rank's output. Switched with the fiber by cxx_streams.hpp.
struct StreamFormat {
  unsigned flags = 0;
  long precision = 0;
  long width = 0;
  char fill = 0;
};

struct StreamFormats {
  bool fresh = true; ///< never switched out: the rank starts with a new process's streams
  StreamFormat out, err, log;
};

/// Per rank (per fiber): the switched globals and, once used, the hidden state.
struct LibcState {
  LibcRegisters regs;
  /// Only where the program names the standard streams (standard_streams_named()): elsewhere
  /// nothing switches them, and a million ranks would carry 104 bytes each for nothing.
  std::unique_ptr<StreamFormats> streams;
  std::unique_ptr<LibcHidden> hidden;
  /// Identity for getopt's hidden scan position (unique per spawned fiber; 0 outside ranks).
  std::uint64_t serial = 0;
};

} // namespace mpilite
