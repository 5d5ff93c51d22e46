/* A ping-pong over message sizes from 0 B to 4 MiB, for comparing simulators on one machine
 * model: prints the one-way time of each size (half the round trip, averaged over `reps` after
 * one round trip that is not timed, so that no rank's start skews it). Rank 0 prints. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int reps = argc > 1 ? atoi(argv[1]) : 10;
  const int max = 1 << 22;
  char* buf = calloc(max, 1);
  static const int sizes[] = {0,     1,     16,     256,     1024,    4096,   16384,
                              65536, 65537, 262144, 1048576, 2097152, 4194304};
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const int n = sizes[s];
    double start = 0;
    for (int i = -1; i < reps; ++i) {
      if (i == 0) start = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buf, n, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, n, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
    if (rank == 0)
      printf("size %d one-way %.6f us\n", n, (MPI_Wtime() - start) / (2.0 * reps) * 1e6);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
