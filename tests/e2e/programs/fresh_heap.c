/* DT's pattern (NPB DT reads a malloc'd array before writing it): memory new to a rank reads as
 * zero, as in a fresh process, even where another rank (or the rank itself) freed data before.
 * Each rank fills and frees blocks of several sizes, then, after a barrier (the other ranks'
 * freed blocks are in the heap too), mallocs new ones and sums them before writing. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = {24, 200, 1000, 5000, 100000, 1 << 20};
enum { kSizes = sizeof sizes / sizeof sizes[0], kRounds = 3 };

/* The allocators a program gets memory from: malloc, the aligned ones of SIMD codes, and MPI's
 * (made inside an MPI call, where the simulator's own blocks are not zeroed). */
static unsigned char* allocate(size_t n, int how) {
  void* p = NULL;
  switch (how % 4) {
  case 0:
    return malloc(n);
  case 1:
    return posix_memalign(&p, 64, n) == 0 ? p : NULL;
  case 2:
    return aligned_alloc(4096, (n + 4095) / 4096 * 4096);
  default:
    return MPI_Alloc_mem((MPI_Aint)n, MPI_INFO_NULL, &p) == MPI_SUCCESS ? p : NULL;
  }
}

static void release(unsigned char* p, int how) {
  if (how % 4 == 3)
    MPI_Free_mem(p);
  else
    free(p);
}

static long unwritten_sum(size_t n, int how) {
  unsigned char* p = allocate(n, how);
  long sum = 0;
  for (size_t i = 0; i < n; ++i)
    sum += p[i];
  memset(p, 0x5a, n);
  release(p, how);
  return sum;
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long sum = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < kSizes; ++k) {
      unsigned char* p = allocate(sizes[k], k + round);
      memset(p, rank + 1, sizes[k]);
      release(p, k + round);
      sum += unwritten_sum(sizes[k], k + round + 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < kSizes; ++k)
      sum += unwritten_sum(sizes[(k + rank) % kSizes], k + rank);
    /* realloc, in place or to a new block: the part past the old size is new memory too. */
    unsigned char* q = calloc(16, 1);
    for (size_t old = 16, grown = 100; grown <= 400000; old = grown, grown *= 20) {
      q = realloc(q, grown);
      for (size_t i = old; i < grown; ++i)
        sum += q[i];
      memset(q, 0x5a, grown);
    }
    free(q);
  }
  long total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("fresh_heap: %d ranks, sum of unwritten bytes %ld\n", size, total);
  MPI_Finalize();
  return 0;
}
