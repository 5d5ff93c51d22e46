/* Aligned globals in every form C declares them, as vectorized HPC kernels use them: each
 * rank's copy keeps the declared alignment, so aligned SSE loads work in every rank.
 * Prints one line per rank with the number of misaligned variables (0 expected). */
#include <emmintrin.h>
#include <mpi.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>

_Alignas(32) double va[64];
double vb[8] __attribute__((aligned(64))) = {1, 2, 3, 4, 5, 6, 7, 8};
__attribute__((aligned(4096))) char page[4096];
alignas(128) double vc[16];
static _Alignas(64) double vs[8] = {0.5, 1.5};
char pad_before; /* a 1-byte neighbour that would push a type-aligned layout off */
struct cell {
  double v[2];
} __attribute__((aligned(64)));
struct cell cells[4];
_Alignas(16) char bytes[3];

static int misaligned(const void* p, uintptr_t align, const char* name, int rank) {
  if ((uintptr_t)p % align == 0) return 0;
  printf("aligned_globals: rank %d: %s at %p is not %lu-byte aligned\n", rank, name, p,
         (unsigned long)align);
  return 1;
}

static double sum_aligned(const double* p, int n) {
  __m128d s = _mm_setzero_pd();
  for (int i = 0; i < n; i += 2)
    s = _mm_add_pd(s, _mm_load_pd(p + i)); /* faults on a misaligned address */
  double out[2];
  _mm_storeu_pd(out, s);
  return out[0] + out[1];
}

static double local_sum(int rank) {
  static _Alignas(256) double local[4];
  local[0] = rank;
  if ((uintptr_t)local % 256 != 0) return -1;
  return sum_aligned(local, 4);
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  pad_before = 1;
  int bad = misaligned(va, 32, "va", rank) + misaligned(vb, 64, "vb", rank) +
            misaligned(page, 4096, "page", rank) + misaligned(vc, 128, "vc", rank) +
            misaligned(vs, 64, "vs", rank) + misaligned(cells, 64, "cells", rank) +
            misaligned(bytes, 16, "bytes", rank);
  bad += _Alignof(struct cell) != 64;
  for (int i = 0; i < 64; ++i)
    va[i] = rank;
  double* hint = __builtin_assume_aligned(va, 32);
  double s = sum_aligned(hint, 64) + sum_aligned(vb, 8) + sum_aligned(vs, 8) + local_sum(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("aligned_globals: rank %d misaligned %d sum %g\n", rank, bad, s);
  MPI_Finalize();
  return 0;
}
