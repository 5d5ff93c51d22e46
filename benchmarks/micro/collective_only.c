/* collective_only: one collective over every rank and nothing else, to measure what a single
 * collective costs the simulator at scale (docs/performance.md). Build with mpisimcc and
 * -DDO_ALLREDUCE (an MPI_Allreduce of one int) or -DDO_BARRIER (an MPI_Barrier); with neither it
 * measures the ranks' start and end alone. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, one = 1, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef DO_ALLREDUCE
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
#endif
#ifdef DO_BARRIER
  MPI_Barrier(MPI_COMM_WORLD);
#endif
  if (rank == 0) printf("sum %d over %d ranks\n", sum, size);
  MPI_Finalize();
  return 0;
}
