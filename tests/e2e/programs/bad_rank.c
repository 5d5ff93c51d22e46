/* Rank 0 sends to a rank that does not exist. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
