/* A 1-D periodic halo exchange whose ranks keep `bytes` of live local array on their stacks: the
 * cost of copying stacks (MPISIM_STACK_COPY=shared) grows with the used part of a stack, while
 * stacks in place cost whole pages whatever is used of them (docs/performance.md).
 *
 * usage: halo_stack [bytes (default 512)] [steps (default 20)] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double relax(int n, int steps, int rank, int size) {
  double u[n + 2]; /* on the stack, as a solver's work array in a subroutine */
  for (int i = 0; i < n + 2; ++i)
    u[i] = rank;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int step = 0; step < steps; ++step) {
    MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; ++i)
      u[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
  }
  double s = 0;
  for (int i = 1; i <= n; ++i)
    s += u[i];
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long bytes = argc > 1 ? atol(argv[1]) : 512;
  const int steps = argc > 2 ? atoi(argv[2]) : 20;
  if (bytes < 16 || bytes > (1L << 24) || steps < 1) {
    if (rank == 0) fprintf(stderr, "usage: halo_stack [bytes: 16 to 16 MiB] [steps >= 1]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const double s = relax((int)(bytes / 8) - 2, steps, rank, size);
  double total = 0;
  MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("halo_stack: sum %.6f over %d ranks\n", total, size);
  MPI_Finalize();
  return 0;
}
