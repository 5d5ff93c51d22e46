/* One barrier entered late in rank order: a token passes from rank 0 to the last rank, each
 * entering MPI_Barrier when it has passed it on, and every rank prints when it entered and left.
 * It shows how a simulator times eager messages whose receiver is late: under MPICH's
 * dissemination barrier the last rank finds its messages already there and leaves after its own
 * overheads, the others one to three rounds after it. docs/results.md uses it to compare mpisim
 * with SimGrid SMPI (SMPI's async-small-thresh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, token = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank > 0) MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank < size - 1) MPI_Send(&token, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD);
  double times[2];
  times[0] = MPI_Wtime();
  MPI_Barrier(MPI_COMM_WORLD);
  times[1] = MPI_Wtime();
  double* all = malloc(sizeof(double) * 2 * (size_t)size);
  MPI_Gather(times, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      printf("rank %d enters %.3f us, leaves %.3f us\n", r, all[2 * r] * 1e6, all[2 * r + 1] * 1e6);
  free(all);
  MPI_Finalize();
  return 0;
}
