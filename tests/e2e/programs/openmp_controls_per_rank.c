/* The OpenMP controls a rank sets are its own, as each process of a real run has its own: team
 * size, schedule, dynamic adjustment and active levels; its regions run with them (a rank's
 * omp_set_dynamic(1) shrank another rank's team).
 * usage: openmp_controls_per_rank */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  omp_set_num_threads(rank + 1);
  omp_set_schedule(rank % 2 ? omp_sched_guided : omp_sched_static, rank + 2);
  omp_set_dynamic(rank == 2);
  omp_set_max_active_levels(rank + 1);
  MPI_Barrier(MPI_COMM_WORLD); /* every rank has set its own before any reads */
  int team = 0, region_kind = 0, region_chunk = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      team = omp_get_num_threads();
      omp_sched_t k;
      omp_get_schedule(&k, &region_chunk);
      region_kind = (int)k;
    }
  }
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  printf(
      "rank %d: max threads %d, team %s, schedule %d chunk %d (in the region %d %d), dynamic %d, "
      "max active levels %d\n",
      rank, omp_get_max_threads(), team <= rank + 1 ? "within it" : "too large", (int)kind, chunk,
      region_kind, region_chunk, omp_get_dynamic(), omp_get_max_active_levels());
  MPI_Finalize();
  return 0;
}
