/* Rank 1 recurses far deeper than a fiber stack allows. */
#include <mpi.h>
#include <stdio.h>

static int down(int n) {
  volatile char frame[1024];
  frame[0] = (char)n;
  return n > 0 ? down(n - 1) + frame[0] : 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) printf("%d\n", down(1 << 20));
  MPI_Finalize();
  return 0;
}
