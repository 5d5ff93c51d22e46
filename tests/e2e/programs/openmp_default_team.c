/* A hybrid code that leaves its team size to the OpenMP runtime (no num_threads, no
 * omp_set_num_threads): each rank prints the size of its team. Without OMP_NUM_THREADS the team
 * is as large as the CPUs the process may use: this host's under mpisim, the target node's cores
 * in the run being predicted, which the report's note says. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  printf("rank %d: team of %d\n", rank, team);
  MPI_Finalize();
  return 0;
}
