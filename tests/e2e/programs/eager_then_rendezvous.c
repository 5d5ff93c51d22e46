/* An eager message, then a rendezvous one, from one sender to two receives posted first: the
 * second is taken only once the first's arrival is decided, and answers a request-to-send that
 * came long before (under MPISIM_NETWORK=contention its data flow started before the network's
 * time: the run aborted).
 * usage: eager_then_rendezvous */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* b = calloc(1, 400000);
  if (rank == 0) {
    MPI_Send(b, 56280, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    MPI_Send(b, 73220, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Request q[2];
    MPI_Status st[2];
    int first, second;
    MPI_Irecv(b, 200000, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(b + 200000, 200000, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, st);
    MPI_Get_count(&st[0], MPI_CHAR, &first);
    MPI_Get_count(&st[1], MPI_CHAR, &second);
    printf("eager_then_rendezvous: received %d and %d bytes\n", first, second);
  }
  free(b);
  MPI_Finalize();
  return 0;
}
