/* A rank that starts a thread of its own with pthread_create: refused by name (the thread would
 * use the globals of whichever rank runs). A helper thread counts into a global.
 * usage: own_thread */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static long work_count;

static void* helper(void* arg) {
  (void)arg;
  for (int i = 0; i < 1000; ++i)
    ++work_count;
  return NULL;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  pthread_t t;
  pthread_create(&t, NULL, helper, NULL);
  pthread_join(t, NULL);
  printf("rank %d: work_count %ld\n", rank, work_count);
  MPI_Finalize();
  return 0;
}
