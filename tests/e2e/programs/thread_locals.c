/* A library made thread-safe keeps its state in thread-locals (an error buffer, a call count, a
 * scale that each call changes): natively each process has its own, so each rank must too. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static __thread char last_error[64];
_Thread_local int calls;
__thread double scale = 1.5;
static _Thread_local int* where_calls = 0;

static void lib_call(int rank, int i) {
  if (!where_calls) where_calls = &calls;
  ++*where_calls;
  snprintf(last_error, sizeof last_error, "rank %d call %d", rank, i);
  scale *= 2;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i <= rank; ++i) {
    lib_call(rank, i);
    MPI_Barrier(MPI_COMM_WORLD); /* the other ranks run in between */
  }
  for (int i = rank + 1; i < 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: %d calls, last error '%s', scale %g\n", rank, calls, last_error, scale);
  MPI_Finalize();
  return 0;
}
