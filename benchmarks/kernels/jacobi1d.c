/* 1-D Jacobi heat diffusion: each rank owns a slice of the rod, exchanges one halo cell with
 * each neighbour per sweep and agrees on the residual with MPI_Allreduce every 10 sweeps.
 * An ordinary MPI program: it knows nothing of mpisim. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int local = argc > 1 ? atoi(argv[1]) : 20000;
  const int sweeps = argc > 2 ? atoi(argv[2]) : 200;
  double* u = calloc((size_t)local + 2, sizeof *u);
  double* v = calloc((size_t)local + 2, sizeof *v);
  if (rank == 0) u[0] = v[0] = 100.0; /* hot left end */
  const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double residual = 0, t0 = MPI_Wtime();
  for (int s = 1; s <= sweeps; ++s) {
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[local + 1], 1, MPI_DOUBLE, right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[local], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (rank == 0) u[0] = 100.0;
    double local_change = 0;
    for (int i = 1; i <= local; ++i) {
      v[i] = 0.5 * (u[i - 1] + u[i + 1]);
      local_change += fabs(v[i] - u[i]);
    }
    double* t = u;
    u = v;
    v = t;
    if (s % 10 == 0)
      MPI_Allreduce(&local_change, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  const double elapsed = MPI_Wtime() - t0;
  double heat = 0, total = 0;
  for (int i = 1; i <= local; ++i)
    heat += u[i];
  MPI_Reduce(&heat, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("jacobi1d: %d ranks x %d cells, %d sweeps: residual %.6e, heat %.6f, "
           "time %.6f s (MPI_Wtime)\n",
           size, local, sweeps, residual, total, elapsed);
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
