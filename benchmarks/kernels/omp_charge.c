/* How an OpenMP region is charged (benchmarks/run-openmp): one unit of work, timed with
 * MPI_Wtime, done by the master alone, by one thread of a team of two while the other waits,
 * or by each of two threads; or two units in one region, by thread 0 before a barrier and by
 * thread 1 after it (two units of time on any number of cores).
 * argv: mode (master, one-of-two, split, alternate), iterations of the unit. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double unit(long iterations) {
  double x = 1.0;
  for (long i = 0; i < iterations; ++i)
    x = x * 1.0000001 + 1e-9;
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* mode = argc > 1 ? argv[1] : "master";
  const long n = argc > 2 ? atol(argv[2]) : 100000000L;
  volatile double sink = 0;
  const double start = MPI_Wtime();
  if (strcmp(mode, "master") == 0) {
    sink = unit(n);
  } else if (strcmp(mode, "one-of-two") == 0) {
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) sink = unit(n);
  } else if (strcmp(mode, "alternate") == 0) {
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0) sink = unit(n);
#pragma omp barrier
      if (omp_get_thread_num() == 1) sink = unit(n);
    }
  } else {
#pragma omp parallel num_threads(2)
    {
      const double x = unit(n);
#pragma omp critical
      sink += x;
    }
  }
  const double elapsed = MPI_Wtime() - start;
  printf("%s %.6f %g\n", mode, elapsed, (double)sink > 0 ? 1.0 : 0.0);
  MPI_Finalize();
  return 0;
}
