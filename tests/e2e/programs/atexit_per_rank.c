/* Each rank registers handlers with atexit() that write its own log from its globals, as a
 * library that keeps per-process statistics does; rank 1 ends with exit(), the others return.
 * Natively each process runs its own handlers, newest first, on its own globals. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me = -1;
static long exchanged = 0;
static char written[32] = "nothing";

static void last(void) {
  printf("rank %d at exit: %ld exchanges, then %s\n", me, exchanged, written);
}

static void write_log(void) {
  strcpy(written, "the log");
}

int main(int argc, char** argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  atexit(last);
  atexit(write_log);
  for (int i = 0; i <= me; ++i) {
    int out = me, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, (me + 1) % size, 0, &in, 1, MPI_INT, (me + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    exchanged += 1;
  }
  /* Every rank takes part in as many exchanges as the largest rank asks for. */
  for (int i = me + 1; i < size; ++i) {
    int out = me, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, (me + 1) % size, 0, &in, 1, MPI_INT, (me + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  if (me == 1) exit(0);
  return 0;
}
