/* A solver-style rank with 1 MiB of local arrays on its stack, as codes written for a native
 * process's 8 MiB stack have: it fills them from its rank, smooths, and agrees on a checksum.
 * Runs with the default stack (no MPISIM_STACK) at 64 ranks. */
#include <mpi.h>
#include <stdio.h>

#define N (64 * 1024)

static double smooth(int rank) {
  double u[N], v[N]; /* 2 x 512 KiB */
  for (int i = 0; i < N; ++i)
    u[i] = (double)((i * 7 + rank * 13) % 101);
  for (int sweep = 0; sweep < 3; ++sweep) {
    v[0] = u[0];
    v[N - 1] = u[N - 1];
    for (int i = 1; i < N - 1; ++i)
      v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
    for (int i = 0; i < N; ++i)
      u[i] = v[i];
  }
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += u[i];
  return sum;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double mine = smooth(rank);
  double total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank % 16 == 3) printf("rank %d: local %.3f\n", rank, mine);
  if (rank == 0) printf("total %.3f\n", total);
  MPI_Finalize();
  return 0;
}
