/* A delay loop as benchmarks and test programs write it: rank 0 waits for its clock to pass
 * 1 ms, reading it with MPI_Wtime, clock_gettime(CLOCK_MONOTONIC) or gettimeofday, and nothing
 * else in the loop; or polls MPI_Iprobe for a message that never comes until 1 ms has passed.
 * With measured CPU every loop ends; with --cpu off only the polling one does (a poll takes
 * simulated time), and the others are refused (docs/model.md, Time of the C library).
 * usage: clock_spin wtime|monotonic|gettimeofday|iprobe */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static double now(const char* clock) {
  if (strcmp(clock, "monotonic") == 0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
  }
  if (strcmp(clock, "gettimeofday") == 0) {
    struct timeval t;
    gettimeofday(&t, NULL);
    return t.tv_sec + t.tv_usec * 1e-6;
  }
  return MPI_Wtime();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* how = argc > 1 ? argv[1] : "wtime";
  if (rank == 0) {
    const int poll = strcmp(how, "iprobe") == 0;
    const double start = now(how);
    double elapsed = 0;
    int flag = 0;
    while (elapsed < 1e-3 && !flag) {
      if (poll) MPI_Iprobe(1, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      elapsed = now(how) - start;
    }
    printf("clock_spin: %s waited %s1 ms, message %d\n", how, elapsed >= 1e-3 ? ">= " : "< ", flag);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
