/* allreduce_bench: the smallest program that touches every rank, built with mpisimcc like a
 * user's program, to measure the simulator's memory and time per rank at scale. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  int status = 0;
  if (sum != size) {
    fprintf(stderr, "rank %d: allreduce gave %d, expected %d\n", rank, sum, size);
    status = 1;
  }
  if (rank == 0) printf("allreduce sum %d over %d ranks\n", sum, size);
  MPI_Finalize();
  return status;
}
