/* A rank holds 1000 communicators at once (as a code that dups a communicator per solver
 * instance, or a window per array, and frees them at the end): MPICH has 2048 context ids, so
 * every dup succeeds. Each communicator is used (a sum over it) before the next one is made,
 * windows are created on a few of them, and a split of the last one still works. Every rank
 * prints what it saw; MPICH prints the same.
 * With the argument "exhaust", rank 0 dups until MPI_Comm_dup fails (errors returned) and
 * prints how many it made and the error: MPICH stops near 2048 with "Too many communicators". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { HELD = 1000, MOST = 4096 };

static int exhaust(void) {
  static MPI_Comm made[MOST];
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int n = 0, err = MPI_SUCCESS;
  while (n < MOST && (err = MPI_Comm_dup(MPI_COMM_SELF, &made[n])) == MPI_SUCCESS)
    ++n;
  char text[MPI_MAX_ERROR_STRING];
  int len, cls;
  MPI_Error_class(err, &cls);
  MPI_Error_string(err, text, &len);
  printf("exhaust: %d dups, then class %s: %s\n", n, cls == MPI_ERR_OTHER ? "MPI_ERR_OTHER" : "?",
         text);
  for (int i = 0; i < n; ++i)
    MPI_Comm_free(&made[i]);
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) exhaust();
    MPI_Finalize();
    return 0;
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm* held = malloc(HELD * sizeof *held);
  long checksum = 0;
  int failed = 0;
  MPI_Comm parent = MPI_COMM_WORLD;
  for (int i = 0; i < HELD; ++i) {
    /* Alternate parents, so that agreements run on communicators made earlier too. */
    if (MPI_Comm_dup(parent, &held[i]) != MPI_SUCCESS) ++failed;
    int mine = rank + i, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, held[i]);
    checksum += sum;
    parent = i % 2 ? MPI_COMM_WORLD : held[i];
  }
  /* Windows dup their communicator: three more contexts per window. */
  MPI_Win win[10];
  int cells[10];
  for (int i = 0; i < 10; ++i)
    MPI_Win_create(&cells[i], sizeof(int), sizeof(int), MPI_INFO_NULL, held[HELD - 1 - i], &win[i]);
  MPI_Comm half;
  MPI_Comm_split(held[HELD - 1], rank % 2, -rank, &half);
  int half_rank, half_sum, one = 1;
  MPI_Comm_rank(half, &half_rank);
  MPI_Allreduce(&one, &half_sum, 1, MPI_INT, MPI_SUM, half);
  printf("rank %d: held %d communicators and 10 windows, checksum %ld, in half %d as %d of %d, "
         "%d failed\n",
         rank, HELD, checksum, rank % 2, half_rank, half_sum, failed);
  for (int i = 0; i < 10; ++i)
    MPI_Win_free(&win[i]);
  MPI_Comm_free(&half);
  for (int i = HELD - 1; i >= 0; --i)
    MPI_Comm_free(&held[i]);
  free(held);
  MPI_Finalize();
  return 0;
}
