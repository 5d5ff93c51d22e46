/* OpenMP constructs whose time mpisim cannot charge to a rank, or that it cannot run: each must
 * be refused by name, never run with a wrong prediction. argv[1] picks one; "mpi-in-region", an
 * MPI call from the master thread inside the region (funnelled), runs. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

/* Privatized: each rank's copy lives with the rank's state in the simulator. */
static volatile long g_work;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* what = argc > 1 ? argv[1] : "";
  int x = 0;
  if (strcmp(what, "task") == 0) {
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(x)
      x = 1;
    }
  } else if (strcmp(what, "mpi-in-region") == 0) {
#pragma omp parallel
    {
#pragma omp master
      MPI_Barrier(MPI_COMM_WORLD);
    }
  } else if (strcmp(what, "mpi-in-critical") == 0) {
#pragma omp parallel
    {
#pragma omp master
      {
#pragma omp critical
        MPI_Barrier(MPI_COMM_WORLD);
      }
    }
  } else if (strcmp(what, "mpi-in-critical-while-working") == 0) {
    /* The run ends from the master while the other thread still works on the rank's globals:
     * the simulator must not free them under it before the process exits. */
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0) {
#pragma omp critical
        MPI_Barrier(MPI_COMM_WORLD);
      } else {
        const double end = omp_get_wtime() + 0.5;
        while (omp_get_wtime() < end)
          g_work = g_work + 1;
      }
    }
  } else if (strcmp(what, "mpi-from-worker") == 0) {
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) MPI_Barrier(MPI_COMM_WORLD);
  }
  printf("x %d\n", x);
  MPI_Finalize();
  return 0;
}
