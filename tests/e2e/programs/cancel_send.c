// MPI_Cancel of sends in the style of MPICH's scancel test: rank 0 cancels a standard send of 0
// bytes (eager: already delivered), a rendezvous send, a synchronous send and a buffered send,
// then tells the last rank whether to receive each. Prints what was cancelled.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int rank, size, flag;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int dest = size - 1;
  for (int kind = 0; kind < 4; ++kind) {
    const int n = kind == 0 ? 0 : 100000 * kind, tag = kind + 1;
    if (rank == 0) {
      char* buf = calloc((size_t)n + 1, 1);
      char* attached = NULL;
      MPI_Request req;
      MPI_Status status;
      if (kind == 3) {
        int bytes = MPI_BSEND_OVERHEAD + n;
        attached = malloc((size_t)bytes);
        MPI_Buffer_attach(attached, bytes);
        MPI_Ibsend(buf, n, MPI_CHAR, dest, tag, MPI_COMM_WORLD, &req);
      } else if (kind == 2) {
        MPI_Issend(buf, n, MPI_CHAR, dest, tag, MPI_COMM_WORLD, &req);
      } else {
        MPI_Isend(buf, n, MPI_CHAR, dest, tag, MPI_COMM_WORLD, &req);
      }
      MPI_Cancel(&req);
      MPI_Wait(&req, &status);
      MPI_Test_cancelled(&status, &flag);
      printf("send of %d bytes (kind %d) cancelled %d\n", n, kind, flag);
      MPI_Send(&flag, 1, MPI_INT, dest, 0, MPI_COMM_WORLD);
      if (attached) {
        int bytes;
        MPI_Buffer_detach(&attached, &bytes);
        free(attached);
      }
      free(buf);
    } else if (rank == dest) {
      MPI_Recv(&flag, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (!flag) {
        char* buf = malloc((size_t)n + 1);
        MPI_Recv(buf, n, MPI_CHAR, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(buf);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
