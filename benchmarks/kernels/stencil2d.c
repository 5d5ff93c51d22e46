/* 2-D Jacobi stencil on a periodic grid of ranks: each rank owns an n x n block, exchanges its
 * four edges with its neighbours every sweep (MPI_Sendrecv) and agrees on the residual with
 * MPI_Allreduce every 10 sweeps. The compute between exchanges is real (about 0.5 ms per sweep
 * for n = 300 on a current core), which is what parallel simulation can overlap.
 * An ordinary MPI program: it knows nothing of mpisim.
 *
 * Built with -DLARGE_SCALE (under mpisim only), it is the worked example of docs/large-scale.md:
 * the two grids are folded (MPISIM_SHARED_MALLOC: all ranks share their pages, their values
 * become garbage) and the sweep's compute is sampled (MPISIM_SAMPLE_LOCAL: measured a few times,
 * then charged its mean). Its control flow and message sizes do not depend on the values, so the
 * predicted time stays that of the real program; its printed sum and residual do not.
 *
 * usage: stencil2d [n] [sweeps] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef LARGE_SCALE
#include <mpisim.h>
#define GRID_ALLOC(bytes) MPISIM_SHARED_MALLOC(bytes)
#define GRID_FREE(p) MPISIM_SHARED_FREE(p)
#else
#define GRID_ALLOC(bytes) calloc(1, bytes)
#define GRID_FREE(p) free(p)
#endif

#define AT(a, i, j) (a)[(size_t)(i) * (size_t)(n + 2) + (size_t)(j)]

/* One Jacobi sweep of the interior from u into v; returns the sum of squared changes. */
static double sweep(int n, const double* u, double* v) {
  double change = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      AT(v, i, j) = 0.25 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
      const double d = AT(v, i, j) - AT(u, i, j);
      change += d * d;
    }
  return change;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 300;
  const int sweeps = argc > 2 ? atoi(argv[2]) : 40;
  int dims[2] = {0, 0}, periods[2] = {1, 1}, coords[2];
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_coords(grid, rank, 2, coords);
  int up, down, left, right;
  MPI_Cart_shift(grid, 0, 1, &up, &down);
  MPI_Cart_shift(grid, 1, 1, &left, &right);
  double* u = GRID_ALLOC((size_t)(n + 2) * (size_t)(n + 2) * sizeof *u);
  double* v = GRID_ALLOC((size_t)(n + 2) * (size_t)(n + 2) * sizeof *v);
  double* col_out = malloc((size_t)n * sizeof *col_out);
  double* col_in = malloc((size_t)n * sizeof *col_in);
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      AT(u, i, j) = (double)((rank * 31 + i * 7 + j) % 101);
  double residual = 0, t0 = MPI_Wtime();
  for (int s = 1; s <= sweeps; ++s) {
    MPI_Sendrecv(&AT(u, 1, 1), n, MPI_DOUBLE, up, 0, &AT(u, n + 1, 1), n, MPI_DOUBLE, down, 0, grid,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, n, 1), n, MPI_DOUBLE, down, 1, &AT(u, 0, 1), n, MPI_DOUBLE, up, 1, grid,
                 MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; ++i)
      col_out[i - 1] = AT(u, i, 1);
    MPI_Sendrecv(col_out, n, MPI_DOUBLE, left, 2, col_in, n, MPI_DOUBLE, right, 2, grid,
                 MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; ++i) {
      AT(u, i, n + 1) = col_in[i - 1];
      col_out[i - 1] = AT(u, i, n);
    }
    MPI_Sendrecv(col_out, n, MPI_DOUBLE, right, 3, col_in, n, MPI_DOUBLE, left, 3, grid,
                 MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; ++i)
      AT(u, i, 0) = col_in[i - 1];
    double change = 0;
#ifdef LARGE_SCALE
    /* The first sweep writes v for the first time (page faults): not a typical sweep. The others
     * are measured up to 20 times per rank, fewer once they vary by less than 1 %, then skipped
     * and charged their mean (the first few sweeps alone run a little faster than the average
     * one: fewer samples charged 5 % less at 64 ranks). */
    if (s == 1)
      change = sweep(n, u, v);
    else
      MPISIM_SAMPLE_LOCAL(20, 0.01) {
        change = sweep(n, u, v);
      }
#else
    change = sweep(n, u, v);
#endif
    double* t = u;
    u = v;
    v = t;
    if (s % 10 == 0) MPI_Allreduce(&change, &residual, 1, MPI_DOUBLE, MPI_SUM, grid);
  }
  double sum = 0, total = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      sum += AT(u, i, j);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, grid);
  const double t = MPI_Wtime() - t0;
  if (rank == 0)
    printf("stencil2d: %d ranks, %dx%d each, %d sweeps: sum %.6e residual %.6e time %.6f s\n", size,
           n, n, sweeps, total, residual, t);
  GRID_FREE(u);
  GRID_FREE(v);
  free(col_out);
  free(col_in);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
