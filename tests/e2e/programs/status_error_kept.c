/* A call that completes one operation leaves status.MPI_ERROR as the program set it (MPI-4.0
 * 3.2.5; MPICH does so too), even when it fails: a code that sets the field before the call and
 * reads it after sees its own value, not one the library chose. Rank 1 prints the field after each
 * call. */
#include <mpi.h>
#include <stdio.h>

enum { KEPT = 777 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int v[4] = {1, 2, 3, 4}, w = 0, flag = 0, index;
  const int peer = 1 - rank;
  MPI_Status s;
  MPI_Request r;
  s.MPI_ERROR = KEPT;
  MPI_Sendrecv(v, 1, MPI_INT, peer, 0, &w, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &s);
  if (rank == 1) printf("MPI_Sendrecv: %d\n", s.MPI_ERROR);
  if (rank == 0) {
    for (int tag = 1; tag <= 6; ++tag)
      MPI_Send(v, tag == 6 ? 4 : 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
  } else {
    s.MPI_ERROR = KEPT;
    MPI_Recv(&w, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &s);
    printf("MPI_Recv: %d\n", s.MPI_ERROR);
    s.MPI_ERROR = KEPT;
    MPI_Irecv(&w, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &s);
    printf("MPI_Wait: %d\n", s.MPI_ERROR);
    s.MPI_ERROR = KEPT;
    MPI_Irecv(&w, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &r);
    do
      MPI_Test(&r, &flag, &s);
    while (!flag);
    printf("MPI_Test: %d\n", s.MPI_ERROR);
    s.MPI_ERROR = KEPT;
    MPI_Irecv(&w, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r);
    MPI_Waitany(1, &r, &index, &s);
    printf("MPI_Waitany: %d\n", s.MPI_ERROR);
    MPI_Message m;
    MPI_Mprobe(0, 5, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
    s.MPI_ERROR = KEPT;
    MPI_Mrecv(&w, 1, MPI_INT, &m, &s);
    printf("MPI_Mrecv: %d\n", s.MPI_ERROR);
    s.MPI_ERROR = KEPT;
    MPI_Irecv(&w, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r); /* 4 ints into 1: truncated */
    const int e = MPI_Wait(&r, &s);
    printf("MPI_Wait of a truncated message: %s, %d\n", e == MPI_SUCCESS ? "success" : "error",
           s.MPI_ERROR);
    r = MPI_REQUEST_NULL;
    s.MPI_ERROR = KEPT;
    MPI_Wait(&r, &s);
    printf("MPI_Wait of MPI_REQUEST_NULL: %d\n", s.MPI_ERROR);
    s.MPI_ERROR = KEPT;
    MPI_Testany(1, &r, &index, &flag, &s);
    printf("MPI_Testany of MPI_REQUEST_NULL: %d\n", s.MPI_ERROR);
  }
  MPI_Finalize();
  return 0;
}
