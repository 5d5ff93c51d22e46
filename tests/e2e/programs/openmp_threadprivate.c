/* OpenMP threadprivate globals as hybrid codes use them: a per-thread call counter, a per-thread
 * random stream seeded through copyin, a library's __thread state, all written by every thread
 * of each rank's team, with the ranks' regions interleaved by MPI calls, also from inside them.
 * As in a real run, where each rank is a process, every rank and every thread has its own copy,
 * the master's is the global's, and the other threads' keep their values from one region to the
 * next. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int counter;
#pragma omp threadprivate(counter)
static unsigned seed = 12345;
double scale = 1.0;
#pragma omp threadprivate(seed, scale)
static __thread int lib_calls;
static __thread int* lib_where = 0; /* initialized per thread, like the library's state */
long total;

static unsigned next_random(void) {
  seed = seed * 1103515245u + 12345u;
  return (seed >> 16) & 0x7fff;
}

static void lib_call(void) {
  if (!lib_where) lib_where = &lib_calls;
  ++*lib_where;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  scale = 1.0 + rank;
  seed = 1000u * (rank + 1);
  for (int step = 0; step < 3; ++step) {
#pragma omp parallel num_threads(2) copyin(scale) reduction(+ : total)
    {
      const int t = omp_get_thread_num();
      if (step == 0) seed += 7u * t; /* the other thread starts from the initializer's 12345 */
      for (int i = 0; i < 10 + t + rank; ++i) {
        ++counter;
        lib_call();
        total += next_random() % 100;
      }
      scale *= t + 2;
#pragma omp barrier
#pragma omp master
      MPI_Barrier(MPI_COMM_WORLD); /* funnelled: other ranks' teams run while this one waits */
#pragma omp barrier
      counter += 1000;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the other ranks' teams run in between */
  }
  int counts[2] = {0, 0}, libs[2] = {0, 0};
  unsigned seeds[2] = {0, 0};
  double scales[2] = {0, 0};
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    counts[t] = counter;
    libs[t] = lib_calls;
    seeds[t] = seed;
    scales[t] = scale;
  }
  long all = 0;
  MPI_Allreduce(&total, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: counter %d %d, calls %d %d, seed %u %u, scale %g %g, total %ld of %ld\n", rank,
         counts[0], counts[1], libs[0], libs[1], seeds[0], seeds[1], scales[0], scales[1], total,
         all);
  MPI_Finalize();
  return 0;
}
