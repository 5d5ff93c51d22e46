/* Rank 1 calls a function whose frame (312 KiB) is larger than a fiber stack but is used only
   at its low end: without page probes the write would skip the guard page and land in the
   stack of another rank. */
#include <mpi.h>
#include <stdio.h>

__attribute__((noinline)) static int scratch(int n) {
  volatile char frame[312 * 1024];
  frame[0] = (char)n;
  return frame[0];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) printf("%d\n", scratch(rank));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
