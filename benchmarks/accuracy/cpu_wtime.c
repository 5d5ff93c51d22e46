/* LD_PRELOAD for native runs: MPI_Wtime returns the calling thread's CPU time, so that a program's
 * own timed section (MPI_Wtime around its loop) reads what mpisim charges for compute (thread CPU
 * time, docs/performance.md) instead of wall time, which on a shared machine also counts the time
 * other processes held the core. Used by benchmarks/run-accuracy on 1-rank compute-only runs. */
#include <time.h>

double MPI_Wtime(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
