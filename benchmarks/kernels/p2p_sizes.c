/* One-way message times by size, for comparing native runs with predictions (benchmarks/
 * run-accuracy). For each size: one warm-up step, then SAMPLES blocks of a fixed number of steps
 * (about 1 MiB of traffic per block, 4 to 256 steps), each block's mean per step, and the
 * median of those means, as mpisim-calibrate measures: the mean keeps clock reads rare, the
 * median drops blocks an interruption spoiled. Buffers are written once before and not checked,
 * so the timed steps are communication only.
 *
 *   pingpong  ranks 0 and 1 bounce the message; a step is one way (half a round trip)
 *   ring      every rank sends to rank + 1 and receives from rank - 1 (MPI_Sendrecv); a step is
 *             one shift of the ring, the slowest rank's
 *
 * usage: p2p_sizes pingpong|ring SAMPLES SIZE...   prints "SIZE SECONDS" per size (rank 0) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Runs `steps` steps; returns the mean time per step on this rank. Every send is of data the rank
 * has just received, as mpisim-calibrate's ping-pong does (one buffer): a buffer that is only ever
 * sent stays in the receiver's cache from one step to the next, and the large sizes then take
 * half the time that fresh data takes (measured: 17 against 32 us at 256 KiB). */
static double block(int ring, int rank, int size, char* bufs[2], int bytes, int steps) {
  const double t0 = MPI_Wtime();
  for (int i = 0; i < steps; ++i)
    if (ring) {
      MPI_Sendrecv(bufs[i % 2], bytes, MPI_CHAR, (rank + 1) % size, 0, bufs[(i + 1) % 2], bytes,
                   MPI_CHAR, (rank - 1 + size) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
      MPI_Send(bufs[0], bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(bufs[0], bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(bufs[0], bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(bufs[0], bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
  return (MPI_Wtime() - t0) / (ring ? steps : 2.0 * steps);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int ring = argc > 1 && strcmp(argv[1], "ring") == 0;
  const int samples = argc > 2 ? atoi(argv[2]) : 0;
  if (argc < 4 || (!ring && strcmp(argv[1], "pingpong") != 0) || samples < 1 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: p2p_sizes pingpong|ring SAMPLES SIZE... (2 ranks or more)\n");
    MPI_Finalize();
    return 2;
  }
  double* means = malloc(sizeof(double) * (size_t)samples);
  for (int a = 3; a < argc; ++a) {
    const int bytes = atoi(argv[a]);
    const long traffic = 1L << 20;
    const int steps = traffic / (bytes + 1) < 4     ? 4
                      : traffic / (bytes + 1) > 256 ? 256
                                                    : (int)(traffic / (bytes + 1));
    /* Written before use: calloc's untouched pages all map the kernel's zero page, which stays in
     * the cache however large the message. */
    char* bufs[2] = {malloc((size_t)bytes + 1), malloc((size_t)bytes + 1)};
    memset(bufs[0], 1, (size_t)bytes + 1);
    memset(bufs[1], 0, (size_t)bytes + 1);
    block(ring, rank, size, bufs, bytes, 1);
    for (int s = 0; s < samples; ++s) {
      /* Every block starts together, so a ring step's time is the slowest rank's. */
      MPI_Barrier(MPI_COMM_WORLD);
      double mean = block(ring, rank, size, bufs, bytes, steps), slowest = mean;
      MPI_Reduce(&mean, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      means[s] = slowest;
    }
    if (rank == 0) {
      qsort(means, (size_t)samples, sizeof(double), by_value);
      printf("%d %.12e\n", bytes, means[samples / 2]);
    }
    free(bufs[0]);
    free(bufs[1]);
  }
  free(means);
  MPI_Finalize();
  return 0;
}
