/* gatherv: one MPI_Gatherv of a few ints from every rank to rank 0, checked, and nothing else:
 * rank 0 posts a receive for every other rank at once, what matching must not pay for in time
 * quadratic in the rank count at every message (benchmarks/run-scale, docs/performance.md).
 * Prints "gatherv verified" when every rank's ints are in their place. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int mine[2] = {rank, -rank};
  int *counts = NULL, *displs = NULL, *all = NULL;
  if (rank == 0) {
    counts = malloc(sizeof(int) * (size_t)size);
    displs = malloc(sizeof(int) * (size_t)size);
    all = malloc(2 * sizeof(int) * (size_t)size);
    for (int r = 0; r < size; ++r) {
      counts[r] = 2;
      displs[r] = 2 * r;
    }
  }
  MPI_Gatherv(mine, 2, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (rank == 0) {
    for (int r = 0; r < size; ++r)
      ok = ok && all[2 * r] == r && all[2 * r + 1] == -r;
    printf(ok ? "gatherv verified\n" : "gatherv WRONG\n");
  }
  free(counts);
  free(displs);
  free(all);
  MPI_Finalize();
  return ok ? 0 : 1;
}
