/* Passes a counter around a ring; each rank keeps how many times it held it in a global. */
#include <mpi.h>
#include <stdio.h>

static int held;
int rounds = 3;

int main(int argc, char** argv) {
  int rank, size, token = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int r = 0; r < rounds; ++r) {
    if (rank != 0 || r > 0)
      MPI_Recv(&token, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ++token;
    ++held;
    MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  }
  if (rank == 0) MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int total = 0;
  MPI_Reduce(&held, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("counter_ring: token %d, held %d times in all\n", token, total);
  MPI_Finalize();
  return 0;
}
