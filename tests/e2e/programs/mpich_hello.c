/* An MPI program built with MPICH (its mpi.h and library, as MPICH's mpicc builds it). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("mpich_hello: rank %d ran without mpisim\n", rank);
  MPI_Finalize();
  return 0;
}
