// The C library functions whose hidden state a rank must have of its own (libc_state.hpp):
// rand/random, the drand48 family, strtok and getopt. Each runs glibc's own code (its
// reentrant variant, or getopt itself) on the calling rank's state. Outside ranks they keep
// one state for the host process, as the C library does.
#include <dlfcn.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cstdio>

#include "interposed.hpp"
#include "libc_state.hpp"
#include "scheduler.hpp"

namespace mpilite {

LibcHidden::LibcHidden() {
  initstate_r(1, reinterpret_cast<char*>(random_table), sizeof random_table, &random);
}

LibcHidden::~LibcHidden() {
  if (dir >= 0) close(dir);
  // The rank is gone (its state is no longer in place): what it made goes with it.
  std::free(fortran_random);
  std::free(environment);
  for (char* s : environment_strings)
    std::free(s);
}

namespace {

LibcState& host_state() {
  static LibcState s; // code outside ranks (the simulator itself, MPICH)
  return s;
}

LibcState& current_state() {
  Scheduler* s = Scheduler::active();
  return s && s->in_fiber() ? s->current()->libc : host_state();
}

LibcHidden& hidden() {
  LibcState& s = current_state();
  if (!s.hidden) s.hidden = std::make_unique<LibcHidden>();
  return *s.hidden;
}

using GetoptFn = int (*)(int, char* const*, const char*);
using GetoptLongFn = int (*)(int, char* const*, const char*, const option*, int*);

/// Serial of the fiber whose scan glibc's getopt remembers (its position inside an
/// argument such as -abc, its ordering and the non-options it is moving to the end).
std::uint64_t g_getopt_owner = ~std::uint64_t{0};

/// Makes glibc's hidden getopt state the calling rank's before a getopt call. A rank's first
/// scan (optind <= 1) starts afresh, as in a new process. A rank that resumes a scan another
/// rank interrupted (an MPI call inside its getopt loop) resumes at its optind: exact unless
/// it stopped inside a group of short options or with non-options still to be moved.
void own_getopt(const char* optstring) {
  LibcState& s = current_state();
  if (s.serial == g_getopt_owner) return;
  g_getopt_owner = s.serial;
  if (optind <= 1) {
    optind = 0; // glibc: start a new scan (reads the ordering from optstring again)
    return;
  }
  static const auto libc_getopt = next_symbol<GetoptFn>("getopt");
  const int at = optind, err = opterr, opt = optopt;
  char* const arg = optarg;
  char name[] = "";
  char* none[] = {name, nullptr};
  optind = 0;
  opterr = 0;
  libc_getopt(1, none, optstring); // resets glibc's position; returns -1
  optind = at;
  opterr = err;
  optopt = opt;
  optarg = arg;
}

} // namespace
} // namespace mpilite

using mpilite::hidden;

// --- getopt ---------------------------------------------------------------------------------

extern "C" int getopt(int argc, char* const argv[], const char* optstring) noexcept {
  static const auto f = mpilite::next_symbol<mpilite::GetoptFn>("getopt");
  mpilite::own_getopt(optstring);
  return f(argc, argv, optstring);
}

// <unistd.h> in strict POSIX mode (no _GNU_SOURCE) names getopt so.
extern "C" int __posix_getopt(int argc, char* const argv[], const char* optstring) noexcept {
  static const auto f = mpilite::next_symbol<mpilite::GetoptFn>("__posix_getopt");
  mpilite::own_getopt(optstring);
  return f(argc, argv, optstring);
}

extern "C" int getopt_long(int argc, char* const argv[], const char* optstring,
                           const option* longopts, int* longindex) noexcept {
  static const auto f = mpilite::next_symbol<mpilite::GetoptLongFn>("getopt_long");
  mpilite::own_getopt(optstring);
  return f(argc, argv, optstring, longopts, longindex);
}

extern "C" int getopt_long_only(int argc, char* const argv[], const char* optstring,
                                const option* longopts, int* longindex) noexcept {
  static const auto f = mpilite::next_symbol<mpilite::GetoptLongFn>("getopt_long_only");
  mpilite::own_getopt(optstring);
  return f(argc, argv, optstring, longopts, longindex);
}

// --- rand, random ---------------------------------------------------------------------------

extern "C" long random() noexcept {
  int32_t r = 0;
  random_r(&hidden().random, &r);
  return r;
}

extern "C" int rand() noexcept {
  return static_cast<int>(random());
}

extern "C" void srandom(unsigned seed) noexcept {
  srandom_r(seed, &hidden().random);
}

extern "C" void srand(unsigned seed) noexcept {
  srandom(seed);
}

// glibc returns the previous state as the caller's buffer (its first word is the type).
extern "C" char* initstate(unsigned seed, char* state, size_t n) noexcept {
  random_data& d = hidden().random;
  char* previous = reinterpret_cast<char*>(d.state - 1);
  return initstate_r(seed, state, n, &d) < 0 ? nullptr : previous;
}

extern "C" char* setstate(char* state) noexcept {
  random_data& d = hidden().random;
  char* previous = reinterpret_cast<char*>(d.state - 1);
  return setstate_r(state, &d) < 0 ? nullptr : previous;
}

// --- drand48 family -------------------------------------------------------------------------

extern "C" double drand48() noexcept {
  double r = 0;
  drand48_r(&hidden().rand48, &r);
  return r;
}

extern "C" double erand48(unsigned short xsubi[3]) noexcept {
  double r = 0;
  erand48_r(xsubi, &hidden().rand48, &r);
  return r;
}

extern "C" long lrand48() noexcept {
  long r = 0;
  lrand48_r(&hidden().rand48, &r);
  return r;
}

extern "C" long nrand48(unsigned short xsubi[3]) noexcept {
  long r = 0;
  nrand48_r(xsubi, &hidden().rand48, &r);
  return r;
}

extern "C" long mrand48() noexcept {
  long r = 0;
  mrand48_r(&hidden().rand48, &r);
  return r;
}

extern "C" long jrand48(unsigned short xsubi[3]) noexcept {
  long r = 0;
  jrand48_r(xsubi, &hidden().rand48, &r);
  return r;
}

extern "C" void srand48(long seed) noexcept {
  srand48_r(seed, &hidden().rand48);
}

extern "C" unsigned short* seed48(unsigned short seed16v[3]) noexcept {
  drand48_data& d = hidden().rand48;
  seed48_r(seed16v, &d);
  return d.__old_x;
}

extern "C" void lcong48(unsigned short param[7]) noexcept {
  lcong48_r(param, &hidden().rand48);
}

// --- strtok ---------------------------------------------------------------------------------

extern "C" char* strtok(char* s, const char* delim) noexcept {
  return strtok_r(s, delim, &hidden().strtok_next);
}
