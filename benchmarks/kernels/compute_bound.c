/* A compute-bound program in the spirit of NPB's EP: every rank generates pseudo-random pairs,
 * counts those inside the unit circle, and the ranks combine their counts once at the end.
 * Used to measure the parallel speedup of the simulator over host processes, and (1 rank) the
 * accuracy of measured compute: the printed time is the loop's, by MPI_Wtime. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long pairs = argc > 1 ? atol(argv[1]) : 20000000;
  unsigned long long x = 271828183ULL + (unsigned long long)rank * 1000003ULL;
  long inside = 0;
  const double t0 = MPI_Wtime();
  for (long i = 0; i < pairs; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const double a = (double)(x >> 11) / 9007199254740992.0;
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const double b = (double)(x >> 11) / 9007199254740992.0;
    inside += a * a + b * b <= 1.0;
  }
  const double elapsed = MPI_Wtime() - t0;
  long total = 0;
  MPI_Allreduce(&inside, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("compute_bound: %d ranks, pi ~ %.6f, time %.6f s (MPI_Wtime)\n", size,
           4.0 * (double)total / ((double)pairs * size), elapsed);
  MPI_Finalize();
  return 0;
}
