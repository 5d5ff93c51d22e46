/* Both ranks send synchronously to each other first: a deadlock in any MPI. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, v = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Ssend(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
  MPI_Recv(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
