/* After MPI_Finalize every rank prints its result and leaves at once, skipping its exit
 * handlers, as codes do to skip slow tear-downs: _exit, _Exit or quick_exit by rank. Each ends
 * its own rank only; the others still print, and the run ends with code 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int rank;

static void handler(void) {
  printf("rank %d: handler ran\n", rank);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size, sum;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  atexit(handler);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  printf("rank %d of %d: sum %d\n", rank, size, sum);
  fflush(stdout);
  switch (rank % 3) {
  case 0:
    _exit(0);
  case 1:
    _Exit(0);
  default:
    quick_exit(0);
  }
}
