/* all_blocked: every rank but the last blocks in MPI_Recv; the last waits for a line on stdin
 * (a real read, which stops the whole host process) before it releases them. Meanwhile the
 * memory of that many blocked ranks can be read from outside, in /proc/PID/smaps
 * (benchmarks/rank-memory). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, token = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == size - 1) {
    char line[16];
    if (!fgets(line, sizeof line, stdin)) token = -1;
    for (int r = 0; r < size - 1; ++r)
      MPI_Send(&token, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 0) printf("all_blocked: %d ranks released\n", size);
  MPI_Finalize();
  return 0;
}
