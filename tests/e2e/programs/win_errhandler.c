// Error handlers of windows: a handler the program makes is called with the window and the code,
// MPI_ERRORS_RETURN hands a synchronization error back, and MPI_Win_get_errhandler answers what
// was set. Every rank prints what it saw; the lines must equal MPICH's.
#include <mpi.h>
#include <stdio.h>

static MPI_Win seen_win = MPI_WIN_NULL;
static int seen_code, calls;

static void record(MPI_Win* win, int* code, ...) {
  seen_win = *win;
  seen_code = *code;
  ++calls;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, cls, buf[2] = {0, 0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

  MPI_Errhandler mine, got;
  MPI_Win_create_errhandler(record, &mine);
  MPI_Win_set_errhandler(win, mine);
  MPI_Win_get_errhandler(win, &got);
  int same = got == mine;
  MPI_Errhandler_free(&got);
  MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
  printf("rank %d: get returns the handler %d; called %d time(s) with the window %d, code "
         "MPI_ERR_OTHER %d\n",
         rank, same, calls, seen_win == win, seen_code == MPI_ERR_OTHER);

  // A put outside any epoch is a synchronization error, returned to the caller.
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int one = 1;
  int rc = MPI_Put(&one, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
  MPI_Error_class(rc, &cls);
  printf("rank %d: put outside an epoch returns MPI_ERR_RMA_SYNC %d, handler calls %d\n", rank,
         cls == MPI_ERR_RMA_SYNC, calls);

  // Bad arguments of a call on the window go to the window's handler too, whatever the
  // communicator's (MPI_COMM_WORLD's stays fatal here).
  MPI_Win_fence(0, win);
  int rank_cls, count_cls, type_cls;
  MPI_Error_class(MPI_Put(&one, 1, MPI_INT, size + 5, 0, 1, MPI_INT, win), &rank_cls);
  MPI_Error_class(MPI_Put(&one, -1, MPI_INT, 0, 0, -1, MPI_INT, win), &count_cls);
  MPI_Error_class(MPI_Put(&one, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win), &type_cls);
  MPI_Win_fence(0, win);
  printf("rank %d: bad rank %d, bad count %d, null datatype %d\n", rank, rank_cls == MPI_ERR_RANK,
         count_cls == MPI_ERR_COUNT, type_cls == MPI_ERR_TYPE);

  MPI_Errhandler_free(&mine);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
