/* A halo exchange that fails when run on the rank count given as its first argument, and finishes
 * on any other: rank 0 exits with code 1 after MPI_Init, or with "spin" as the second argument
 * never ends (a study's failing and timed-out configurations). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && size == atoi(argv[1]) && rank == 0) {
    if (argc > 2 && strcmp(argv[2], "spin") == 0) {
      volatile unsigned long spins = 0;
      for (;;)
        ++spins;
    }
    fprintf(stderr, "fails_at_ranks: refusing to run on %d ranks\n", size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double halo = rank, got = 0;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Sendrecv(&halo, 1, MPI_DOUBLE, right, 0, &got, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
