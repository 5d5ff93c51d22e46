/* Sections of a team that one thread at a time runs: a critical section, a named one, ordered
 * iterations and an OpenMP lock. Each thread works 5 ms of CPU time inside; the threads take the
 * section in turn, so the region lasts at least the sum of their times inside, whatever the cores.
 * The program measures that sum itself and says whether the region's time (MPI_Wtime) covers it. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double sink;

/* `seconds` of this thread's CPU time; returns what it measured. */
static double work(double seconds) {
  const double start = cpu_now();
  double x = 0;
  while (cpu_now() - start < seconds)
    for (int i = 0; i < 1000; ++i)
      x += i * 1e-9;
  sink = x;
  return cpu_now() - start;
}

static void report(int rank, const char* kind, double elapsed, double inside) {
  if (elapsed >= inside)
    printf("rank %d: %s: serialized\n", rank, kind);
  else
    printf("rank %d: %s: overlapped (%.6f s for %.6f s inside)\n", rank, kind, elapsed, inside);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double x = 0.005;
  omp_lock_t lock;
  omp_init_lock(&lock);
  double inside = 0, t0 = MPI_Wtime();
#pragma omp parallel reduction(+ : inside)
  {
#pragma omp critical
    inside += work(x);
  }
  double t1 = MPI_Wtime();
  report(rank, "critical", t1 - t0, inside);

  inside = 0;
#pragma omp parallel reduction(+ : inside)
  {
#pragma omp critical(accumulate)
    inside += work(x);
  }
  double t2 = MPI_Wtime();
  report(rank, "named critical", t2 - t1, inside);

  inside = 0;
  const int threads = omp_get_max_threads();
#pragma omp parallel for ordered schedule(static, 1) reduction(+ : inside)
  for (int i = 0; i < threads; ++i) {
#pragma omp ordered
    inside += work(x);
  }
  double t3 = MPI_Wtime();
  report(rank, "ordered", t3 - t2, inside);

  inside = 0;
#pragma omp parallel reduction(+ : inside)
  {
    omp_set_lock(&lock);
    inside += work(x);
    omp_unset_lock(&lock);
  }
  double t4 = MPI_Wtime();
  report(rank, "lock", t4 - t3, inside);
  omp_destroy_lock(&lock);
  MPI_Finalize();
  return 0;
}
