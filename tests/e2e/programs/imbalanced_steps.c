/* Steps of uneven work: at step s rank r computes (r + 1) * (s + 1) us (MPISIM_Compute), then
 * swaps 1 KiB with its ring neighbours and joins an MPI_Allreduce. With "balanced", every rank
 * computes the mean over ranks of that step's work instead: what the ideal-balance bound of a
 * replay of the uneven run must predict.
 *
 * usage: imbalanced_steps STEPS [balanced] */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int steps = argc > 1 ? atoi(argv[1]) : 4;
  const int balanced = argc > 2 && strcmp(argv[2], "balanced") == 0;
  char out[1024], in[1024];
  memset(out, rank, sizeof out);
  double sum = 0;
  for (int s = 0; s < steps; ++s) {
    const double units = balanced ? (size + 1) / 2.0 : rank + 1;
    MPISIM_Compute(units * (s + 1) * 1e-6);
    MPI_Sendrecv(out, sizeof out, MPI_CHAR, (rank + 1) % size, 0, in, sizeof in, MPI_CHAR,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double mine = in[0], total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sum += total;
  }
  if (rank == 0) printf("sum %.0f\n", sum);
  MPI_Finalize();
  return 0;
}
