// gfortran's RANDOM_NUMBER and RANDOM_SEED per rank. libgfortran keeps its generator per
// thread (a thread-specific key), and the ranks of a host process share one thread: a rank's
// RANDOM_SEED(PUT=) moved every rank's sequence, and the ranks drew in turn from one stream.
// Monte Carlo codes seed each rank from its number and expect the native sequence of that seed.
// The entry points the compiled program calls are interposed; the first call from a rank finds
// libgfortran's key and has the scheduler give each rank a state of its own from then on, so
// each rank's draws are those of a native process with the same seed. A call costs one test
// more; the program's draws run in libgfortran unchanged.
#include <limits.h>
#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "interposed.hpp"
#include "world.hpp"

namespace {

/// The key whose value libgfortran's first draw on this thread sets. No draw has been made on
/// this thread before: every caller is a rank, and ranks come here first.
pthread_key_t find_random_key() {
  std::vector<void*> before(PTHREAD_KEYS_MAX);
  for (unsigned k = 0; k < PTHREAD_KEYS_MAX; ++k)
    before[k] = pthread_getspecific(k);
  double x;
  reinterpret_cast<void (*)(double*)>(mpilite::libgfortran_symbol("_gfortran_random_r8"))(&x);
  for (unsigned k = 0; k < PTHREAD_KEYS_MAX; ++k)
    if (!before[k] && pthread_getspecific(k)) return k;
  std::fprintf(stderr, "mpisim: cannot find libgfortran's random-number state (its generator "
                       "was used before the ranks ran); RANDOM_NUMBER cannot be kept per rank\n");
  std::abort();
}

/// libgfortran's `Self` on the calling rank's generator state.
template <auto Self, class... Args> void per_rank(const char* name, Args... args) {
  const auto real = mpilite::libgfortran_own<Self>(name);
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (!w) return real(args...);
  mpilite::Scheduler& s = w->scheduler();
  if (!s.keeps_random_states()) s.keep_random_states(find_random_key());
  real(args...);
  s.random_state_used();
}

} // namespace

// The signatures are libgfortran's (GCC 8 and later): REAL kinds 4, 8, 10 and 16 by address,
// arrays by descriptor, RANDOM_SEED's SIZE, PUT and GET by address, RANDOM_INIT's by value.
extern "C" {
void _gfortran_random_r4(float* x) {
  per_rank<&_gfortran_random_r4>("_gfortran_random_r4", x);
}
void _gfortran_random_r8(double* x) {
  per_rank<&_gfortran_random_r8>("_gfortran_random_r8", x);
}
void _gfortran_random_r10(long double* x) {
  per_rank<&_gfortran_random_r10>("_gfortran_random_r10", x);
}
void _gfortran_random_r16(__float128* x) {
  per_rank<&_gfortran_random_r16>("_gfortran_random_r16", x);
}
void _gfortran_arandom_r4(void* array) {
  per_rank<&_gfortran_arandom_r4>("_gfortran_arandom_r4", array);
}
void _gfortran_arandom_r8(void* array) {
  per_rank<&_gfortran_arandom_r8>("_gfortran_arandom_r8", array);
}
void _gfortran_arandom_r10(void* array) {
  per_rank<&_gfortran_arandom_r10>("_gfortran_arandom_r10", array);
}
void _gfortran_arandom_r16(void* array) {
  per_rank<&_gfortran_arandom_r16>("_gfortran_arandom_r16", array);
}
void _gfortran_random_seed_i4(std::int32_t* size, void* put, void* get) {
  per_rank<&_gfortran_random_seed_i4>("_gfortran_random_seed_i4", size, put, get);
}
void _gfortran_random_seed_i8(std::int64_t* size, void* put, void* get) {
  per_rank<&_gfortran_random_seed_i8>("_gfortran_random_seed_i8", size, put, get);
}
void _gfortran_random_init(std::int32_t repeatable, std::int32_t image_distinct,
                           std::int32_t hidden) {
  per_rank<&_gfortran_random_init>("_gfortran_random_init", repeatable, image_distinct, hidden);
}
}
