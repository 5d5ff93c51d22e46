/* Ping-pong between ranks 0 and 1 for each message size given: prints "bytes seconds" with the
 * one-way time (half the mean round trip) as MPI_Wtime sees it. Like mpisim-calibrate, it warms
 * up with one round trip of the size before timing, which also leaves the two ranks in step. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int reps = 4;
  for (int a = 1; a < argc; ++a) {
    const int bytes = atoi(argv[a]);
    char* buf = calloc((size_t)bytes + 1, 1);
    double start = 0;
    for (int i = -1; i < reps && rank < 2; ++i) {
      if (i == 0) start = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
    if (rank == 0) printf("%d %.12e\n", bytes, (MPI_Wtime() - start) / (2.0 * reps));
    free(buf);
  }
  MPI_Finalize();
  return 0;
}
