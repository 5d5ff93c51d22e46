/* A compute-bound kernel that works on global arrays in its inner loop: Jacobi sweeps of a
 * five-point stencil over a grid held in globals, as old Fortran-derived C codes do. Each rank
 * sweeps its own copy; one reduction at the end. It measures what privatization costs the
 * code that touches globals most: built with mpisimcc, and with -mpisim-no-privatize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256
double grid[N][N];
double next[N][N];
int sweeps_done;
double weight = 0.25;

static void sweep(void) {
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      next[i][j] = weight * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1]);
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      grid[i][j] = next[i][j];
  ++sweeps_done;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int sweeps = argc > 1 ? atoi(argv[1]) : 200;
  for (int i = 0; i < N; ++i)
    grid[i][0] = grid[0][i] = 1.0 + rank;
  for (int s = 0; s < sweeps; ++s)
    sweep();
  double mine = grid[N / 2][N / 2], sum = 0;
  MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("global_stencil: %d ranks, %d sweeps each, centre sum %.9e\n", size, sweeps_done, sum);
  MPI_Finalize();
  return 0;
}
