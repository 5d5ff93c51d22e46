/* Communicators made and freed in a loop, more times than a rank can hold at once (argv[1]
 * times each of MPI_Comm_dup, _split, _create and _create_group; 1000 by default): freed context
 * ids are used again, as in MPICH. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int rounds = argc > 1 ? atoi(argv[1]) : 1000;
  for (int i = 0; i < rounds; ++i) {
    MPI_Comm c[4];
    MPI_Comm_dup(MPI_COMM_WORLD, &c[0]);
    MPI_Comm_split(c[0], rank % 2, -rank, &c[1]);
    MPI_Comm_create(MPI_COMM_WORLD, world, &c[2]);
    MPI_Comm_create_group(MPI_COMM_WORLD, world, i, &c[3]);
    for (int k = 0; k < 4; ++k) {
      int n = -1;
      MPI_Comm_size(c[k], &n);
      errors += n != (k == 1 ? (size + (rank % 2 ? 0 : 1)) / 2 : size);
      MPI_Comm_free(&c[k]);
    }
  }
  MPI_Group_free(&world);
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("comm_free_loop: %d ranks, %d communicators, %d failed checks\n", size, 4 * rounds,
           total);
  MPI_Finalize();
  return 0;
}
