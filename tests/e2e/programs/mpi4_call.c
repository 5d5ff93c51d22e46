/* MPI_Isendrecv is MPI-4; mpisim's mpi.h (MPI-3.1) does not declare it. Without a declaration
   the wrapper's compiler refuses the call; with one of the program's own (DECLARE_IT), the
   link does. */
#include <mpi.h>

#ifdef DECLARE_IT
int MPI_Isendrecv(const void*, int, MPI_Datatype, int, int, void*, int, MPI_Datatype, int, int,
                  MPI_Comm, MPI_Request*);
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, out, in = -1;
  MPI_Request req;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  out = rank;
  MPI_Isendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT, (rank + size - 1) % size,
                0, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
