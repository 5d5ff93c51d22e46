/* Exit handlers registered with glibc's on_exit(), which get the exit status and an argument,
   beside atexit() ones: each rank's run when it ends, newest first, on its own globals, as in
   the rank's own process. Rank 1 ends with exit(0) after MPI_Finalize, the others return. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int g_rank = -1;
static double g_sum;
static int g_tag;
static int g_calls; /* handlers run so far: they run newest first */

static void report(int status, void* arg) {
  printf("rank %d on_exit %s: call %d, status %d, sum %g, tag %d\n", g_rank, (const char*)arg,
         ++g_calls, status, g_sum, g_tag);
}

static void plain(void) {
  printf("rank %d atexit: call %d, tag %d\n", g_rank, ++g_calls, g_tag);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  on_exit(report, "first");
  atexit(plain);
  on_exit(report, "last");
  double v = g_rank * 1.5;
  MPI_Allreduce(&v, &g_sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  g_sum += g_rank;
  g_tag = 100 + g_rank;
  MPI_Finalize();
  if (g_rank == 1) exit(0);
  return 0;
}
