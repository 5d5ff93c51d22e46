/* Faults of a target program, one per mode (argv[1]), for the tests of issue 13: each must end
 * the run with the rank named and the exit code mpiexec would give, never a hang. */
#include <mpi.h>
#include <mpisim.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int* volatile null_pointer = NULL;
static volatile int zero = 0;
static volatile long spins = 0;

/* The faults are deliberate: a sanitized test build must let the signal reach mpisim rather than
 * report the undefined behaviour itself. */
__attribute__((no_sanitize("undefined"))) static void store_through_null(void) {
  *null_pointer = 1;
}
__attribute__((no_sanitize("undefined"))) static int divide_by_zero(int n) {
  return n / zero; /* not 1 / zero: compilers turn it into a compare */
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  MPI_Init(&argc, &argv);
  int rank, size, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  /* Printed before a fault ends the run, it must still appear (stdout may be a pipe). */
  printf("faults: rank %d started (%s)\n", rank, mode);
  if (strcmp(mode, "segv") == 0 && rank == 1) store_through_null();
  if (strcmp(mode, "fpe") == 0 && rank == 1) v = divide_by_zero(size);
  if (strcmp(mode, "abort") == 0 && rank == 1) abort();
  if (strcmp(mode, "exit") == 0) {
    /* Rank 1 leaves without sending what rank 0 waits for. */
    if (rank == 1) exit(3);
    if (rank == 0) MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (strcmp(mode, "compute") == 0) /* compute SECONDS [TIMES] */
    for (int i = 0; i < (argc > 3 ? atoi(argv[3]) : 1); ++i)
      MPISIM_Compute(atof(argv[2]));
  if (strcmp(mode, "send") == 0 && size > 1) { /* two messages from rank 0 to rank 1 */
    for (int i = 0; i < 2; ++i) {
      if (rank == 0) MPI_Send(&v, 1, MPI_INT, 1, i, MPI_COMM_WORLD);
      if (rank == 1) MPI_Recv(&v, 1, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  if (strcmp(mode, "spin") == 0 && rank == size - 1)
    for (;;)
      ++spins; /* never returns to MPI */
  if (strcmp(mode, "poll") == 0 && rank == 0) {
    /* Works and polls for a message the last rank never sends: it finalizes. (A loop that only
     * polls while nothing else can happen is ended by mpisim itself: docs/model.md, Tests and
     * polls.) */
    MPI_Request q;
    int done = 0;
    MPI_Irecv(&v, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, &q);
    while (!done) {
      MPISIM_Compute(1e-6);
      MPI_Test(&q, &done, MPI_STATUS_IGNORE);
    }
  }
  printf("faults: rank %d of %d done (%s) %d\n", rank, size, mode, v);
  MPI_Finalize();
  return 0;
}
