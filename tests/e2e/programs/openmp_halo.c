/* A hybrid code in the funnelled style (MPI_THREAD_FUNNELED): a 1-D diffusion whose ranks each
 * smooth their part of the domain with OpenMP loops, while the master thread exchanges the
 * halo cells with the neighbours and sums the residual over the ranks, inside the parallel
 * region. The arrays and the residual are globals, so every thread reads the rank's own copy of
 * what the master received. The values stay multiples of 2^-20 below 2^15: every sum is exact,
 * in any order. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define N 2048
#define STEPS 10

static double u[N + 2], unew[N + 2]; /* cells 1..N, halo cells 0 and N + 1 */
double residual;
int exchanges;

static double local_sum(void) {
  double s = 0;
  for (int i = 1; i <= N; ++i)
    s += u[i];
  return s;
}

int main(int argc, char** argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  for (int i = 1; i <= N; ++i)
    u[i] = (double)((i * i + 5 * rank) % 13);

  long halo_reads = 0, residual_reads = 0;
#pragma omp parallel reduction(+ : halo_reads, residual_reads)
  {
    for (int step = 0; step < STEPS; ++step) {
#pragma omp master
      {
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[N + 1], 1, MPI_DOUBLE, right, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[N], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        ++exchanges;
      }
#pragma omp barrier
      /* Every thread sees the halo the master received (nonzero but at the domain's ends). */
      halo_reads +=
          (left == MPI_PROC_NULL || u[0] != 0) && (right == MPI_PROC_NULL || u[N + 1] != 0);
#pragma omp for schedule(static)
      for (int i = 1; i <= N; ++i)
        unew[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
#pragma omp for schedule(static)
      for (int i = 1; i <= N; ++i)
        u[i] = unew[i];
#pragma omp master
      {
        const double mine = local_sum();
        MPI_Allreduce(&mine, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      }
#pragma omp barrier
      residual_reads += residual > 0;
#pragma omp barrier
    }
  }
  printf("rank %d: funneled %d, exchanges %d, halo reads %ld, residual reads %ld, sum %.9f, "
         "u[1] %.9f, u[N] %.9f, total %.9f\n",
         rank, provided >= MPI_THREAD_FUNNELED, exchanges, halo_reads, residual_reads, local_sum(),
         u[1], u[N], residual);
  MPI_Finalize();
  return 0;
}
