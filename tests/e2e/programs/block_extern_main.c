/* A block-scope extern declaration of a global defined in another file (old Fortran-to-C
 * and K&R style codes do this). */
#include <mpi.h>
#include <stdio.h>

static int bump(int by) {
  extern int counter;
  extern double history[4];
  history[counter % 4] = by;
  return counter += by;
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bump(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  extern int counter;
  extern double history[4];
  const int now = bump(1);
  printf("block_extern: rank %d counter %d history %g\n", rank, now, history[0] + history[1]);
  MPI_Finalize();
  return 0;
}
