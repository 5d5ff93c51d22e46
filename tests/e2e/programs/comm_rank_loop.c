/* Calls MPI_Comm_rank N times (default 100 000) with nothing in between: the compute charged
 * for the loop is what measuring compute costs per MPI call. Prints the simulated time per call
 * as MPI_Wtime sees it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long n = argc > 1 ? atol(argv[1]) : 100000;
  int rank = 0;
  long sum = 0;
  const double start = MPI_Wtime();
  for (long i = 0; i < n; ++i) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sum += rank;
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0)
    printf("comm_rank_loop: %ld calls, rank sum %ld, %.1f ns each\n", n, sum, elapsed / n * 1e9);
  MPI_Finalize();
  return 0;
}
