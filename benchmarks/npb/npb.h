/* Pieces shared by the NPB-style programs: NPB's pseudo-random generator, the problem class from
 * the command line and NPB's summary block. Written from the NAS Parallel Benchmarks report
 * (NPB 2/3); the generator is its linear congruential one, x_{k+1} = a x_k mod 2^46.
 *
 * Header-only and free of mutable file-scope state: until the privatizer lands, the simulated
 * ranks of one host process share every global, so all state lives in main's locals. */
#ifndef NPB_NPB_H
#define NPB_NPB_H

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPB_A 1220703125.0 /* 5^13, NPB's multiplier */
#define NPB_SEED 314159265.0

static const uint64_t npb_mask46 = (1ULL << 46) - 1;
__extension__ typedef unsigned __int128 npb_u128; /* GCC and Clang */

/* One step of NPB's generator: *x = a * *x mod 2^46; returns the new *x / 2^46. The doubles hold
 * integers below 2^46 exactly, so integer arithmetic gives the same numbers as NPB's
 * floating-point splitting. */
static inline double randlc(double* x, double a) {
  const npb_u128 p = (npb_u128)(uint64_t)a * (uint64_t)*x;
  const uint64_t r = (uint64_t)p & npb_mask46;
  *x = (double)r;
  return (double)r * 0x1p-46;
}

/* n steps of the generator: y[i] is the (i+1)-th number after *x; *x ends at the last state. */
static inline void vranlc(int n, double* x, double a, double* y) {
  const uint64_t m = (uint64_t)a;
  uint64_t s = (uint64_t)*x;
  for (int i = 0; i < n; ++i) {
    s = (uint64_t)((npb_u128)m * s) & npb_mask46;
    y[i] = (double)s * 0x1p-46;
  }
  *x = (double)s;
}

/* a^n mod 2^46 (n >= 0), to skip n numbers of the sequence: x * a^n. */
static inline double npb_pow(double a, uint64_t n) {
  uint64_t r = 1, b = (uint64_t)a;
  while (n) {
    if (n & 1) r = (uint64_t)((npb_u128)r * b) & npb_mask46;
    b = (uint64_t)((npb_u128)b * b) & npb_mask46;
    n >>= 1;
  }
  return (double)r;
}

/* The seed after skipping n numbers from `seed`. */
static inline double npb_skip(double seed, uint64_t n) {
  double s = seed;
  randlc(&s, npb_pow(NPB_A, n));
  return s;
}

/* The problem class from argv[1] (S, W or A; default S). Exits on anything else. */
static inline char npb_class(int argc, char** argv, int rank) {
  const char c = argc > 1 ? argv[1][0] : 'S';
  if ((c != 'S' && c != 'W' && c != 'A') || (argc > 1 && argv[1][1] != '\0')) {
    if (rank == 0) fprintf(stderr, "class must be S, W or A, not '%s'\n", argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return c;
}

/* argv[2] (optional) names a variant, e.g. "any" for wildcard receives; "" if absent. */
static inline const char* npb_variant(int argc, char** argv) {
  return argc > 2 ? argv[2] : "";
}

/* Ends the run with a message from rank 0 when the rank count does not suit the program. */
static inline void npb_require(int ok, int rank, const char* name, const char* what) {
  if (ok) return;
  if (rank == 0) fprintf(stderr, "%s: %s\n", name, what);
  MPI_Finalize();
  exit(1);
}

static inline int npb_is_pow2(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

static inline int npb_ilog2(int n) {
  int l = 0;
  while ((1 << l) < n)
    ++l;
  return l;
}

/* The largest time over the ranks of the timed section, NPB's figure. */
static inline double npb_max_time(double t) {
  double m = 0;
  MPI_Reduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return m;
}

/* NPB's summary block (rank 0 only). */
static inline void npb_print_results(const char* name, char cls, const char* size, int iterations,
                                     int ranks, double seconds, double mops, const char* optype,
                                     int verified) {
  printf("\n\n %s Benchmark Completed.\n", name);
  printf(" Class           =                        %c\n", cls);
  printf(" Size            =             %12s\n", size);
  printf(" Iterations      =             %12d\n", iterations);
  printf(" Time in seconds =             %12.6f\n", seconds);
  printf(" Total processes =             %12d\n", ranks);
  printf(" Mop/s total     =             %12.2f\n", mops);
  printf(" Mop/s/process   =             %12.2f\n", mops / ranks);
  printf(" Operation type  = %24s\n", optype);
  printf(" Verification    =             %12s\n", verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
  fflush(stdout);
}

#endif /* NPB_NPB_H */
