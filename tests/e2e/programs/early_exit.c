/* Ranks that end with exit(): each ends only itself, as one process of a real MPI job would. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&rank, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0) exit(0); /* rank 0 leaves first; the others still print */
  printf("rank %d of %d after exit of rank 0: sum %d\n", rank, size, v);
  if (rank == size - 1) exit(argc > 1 ? atoi(argv[1]) : 0);
  return 0;
}
