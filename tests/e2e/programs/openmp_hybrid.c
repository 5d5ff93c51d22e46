/* A hybrid MPI + OpenMP program in the style of production codes: MPI between ranks, OpenMP
 * loops inside each (reductions, schedules, single and critical sections, barriers), global
 * arrays written by every thread of the team, and one rank that changes its own team size. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define N 4096

static double field[N]; /* every thread writes its share of the rank's own copy */
int sweeps;

int main(int argc, char** argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_FUNNELED) printf("rank %d: FUNNELED not provided\n", rank);
  if (rank == 1) omp_set_num_threads(3); /* this process only */

  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  printf("rank %d: max threads %d, team %d\n", rank, omp_get_max_threads(), team);

  for (sweeps = 0; sweeps < 3; ++sweeps) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; ++i)
      field[i] = (rank + 1) * 0.5 * i + sweeps;
  }
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(dynamic, 7)
  for (int i = 0; i < N; ++i)
    sum += field[i];

  long hits = 0;
  int sections = 0;
#pragma omp parallel
  {
#pragma omp for schedule(guided)
    for (int i = 0; i < N; ++i)
      if (((int)field[i]) % 3 == 0) {
#pragma omp atomic
        ++hits;
      }
#pragma omp barrier
#pragma omp critical
    sections += 1;
  }
#pragma omp parallel sections reduction(+ : sum)
  {
#pragma omp section
    sum += 1;
#pragma omp section
    sum += 2;
  }

  double total = 0;
  long all_hits = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&hits, &all_hits, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: sweeps %d, sum %.1f, hits %ld, critical sections %d, total %.1f, all hits %ld\n",
         rank, sweeps, sum, hits, sections == team, total, all_hits);
  MPI_Finalize();
  return 0;
}
