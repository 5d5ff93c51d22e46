/* Compiled against MPICH's mpi.h (as MPICH's mpicc does), not mpisim's: MPI_Send here is
   MPICH's, and would bypass the simulator. */
#include <mpi.h>

void send_one(int to) {
  int one = 1;
  MPI_Send(&one, 1, MPI_INT, to, 0, MPI_COMM_WORLD);
}
