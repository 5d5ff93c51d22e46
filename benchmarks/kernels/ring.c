/* A token passed `rounds` times around a ring of all ranks; each rank adds one. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, token = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int r = 0; r < rounds; ++r) {
    if (rank == 0) {
      MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ++token;
    } else {
      MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ++token;
      MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) printf("ring: token %d after %d rounds of %d ranks\n", token, rounds, size);
  MPI_Finalize();
  return 0;
}
