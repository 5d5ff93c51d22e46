/* Every rank sends synchronously to the next one first, around a ring: a deadlock in any MPI. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, v = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Ssend(&v, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  MPI_Recv(&v, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
