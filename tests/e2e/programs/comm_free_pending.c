// A receive posted on a communicator that is then freed (allowed: the free waits for pending
// operations) must not take the messages of a communicator made afterwards, which may get the
// same context id: the context stays held until the receive is matched or cancelled.
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm d, d2;
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  int v = -1, y = r, z = -1, flag = 0, cancelled = 0;
  MPI_Request q;
  MPI_Irecv(&v, 1, MPI_INT, (r + n - 1) % n, 5, d, &q);
  MPI_Comm_free(&d);
  MPI_Comm_dup(MPI_COMM_WORLD, &d2);
  MPI_Send(&y, 1, MPI_INT, (r + 1) % n, 5, d2);
  MPI_Recv(&z, 1, MPI_INT, (r + n - 1) % n, 5, d2, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
  MPI_Status st;
  MPI_Cancel(&q);
  MPI_Wait(&q, &st);
  MPI_Test_cancelled(&st, &cancelled);
  printf("rank %d: new comm got %d, receive on the freed one done %d, cancelled %d, v %d\n", r, z,
         flag, cancelled, v);
  MPI_Comm_free(&d2);
  MPI_Finalize();
  return 0;
}
