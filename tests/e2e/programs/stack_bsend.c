/* Buffered sends from an attach buffer on the rank's stack: the receiving rank reads the message
 * from there while the sender runs on. With shared stacks (MPISIM_STACK_COPY=shared) another
 * rank may occupy that stack by then, so the attach is refused; otherwise the run is MPICH's. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char attached[MPI_BSEND_OVERHEAD + 64];
  MPI_Buffer_attach(attached, (int)sizeof attached);
  int out = rank * 7, in = -1;
  MPI_Bsend(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  void* detached = NULL;
  int bytes = 0;
  MPI_Buffer_detach(&detached, &bytes);
  int wrong = in != ((rank + size - 1) % size) * 7, total = 0;
  MPI_Reduce(&wrong, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("stack_bsend: %d ranks, %d wrong\n", size, total);
  MPI_Finalize();
  return 0;
}
