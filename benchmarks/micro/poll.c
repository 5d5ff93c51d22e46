/* poll_bench: the cost of a poll that finds nothing. Rank 0 polls MPI_Iprobe `polls` times
 * (default 10 000 000) for a message no rank has sent, while rank 1 waits in MPI_Recv for rank 0:
 * rank 0 alone can act, the state in which mpisim counts a rank's failed polls (docs/model.md,
 * Tests and polls). Then rank 0 sends and both end.
 *
 * usage: poll_bench [polls]   (below 16 777 216, where such a loop is ended as a deadlock) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, flag = 0, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long polls = argc > 1 ? atol(argv[1]) : 10000000;
  if (rank == 0) {
    long found = 0;
    for (long i = 0; i < polls; ++i) {
      MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      found += flag;
    }
    MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    printf("poll_bench: %ld polls, %ld found\n", polls, found);
  } else if (rank == 1) {
    MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
