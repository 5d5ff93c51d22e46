/* A neighbourhood collective on a communicator without a process topology: an MPI error
 * (MPI_ERR_TOPOLOGY, fatal under the default error handler). */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int mine = 1, got[4];
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
