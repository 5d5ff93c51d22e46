/* A shared ticket counter whose order depends on the network: rank 0 holds a counter in a window
 * and sends rank 2 a 60000-byte task; rank 1 works 20 us, rank 2 receives its task and works 2 us,
 * then each takes a ticket with MPI_Fetch_and_op under an exclusive lock. The first ticket gets
 * the big job (100 us of work), the second a small one (1 us). At 12 GB/s (5 us for rank 2's task)
 * rank 2 takes ticket 0, at 1.2 GB/s (50 us) rank 1 does: a record made on one network holds the
 * jobs of the other order, and its replay on the other must say so. */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <stdlib.h>

enum { kTask = 60000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    if (rank == 0) fprintf(stderr, "rma_first_come: run with 3 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long* counter = NULL;
  MPI_Win win;
  MPI_Win_allocate(rank == 0 ? sizeof(long) : 0, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &counter, &win);
  char* task = calloc(kTask, 1);
  long ticket = -1;
  if (rank == 0) {
    MPI_Send(task, kTask, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
  } else {
    if (rank == 2) MPI_Recv(task, kTask, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPISIM_Compute(rank == 1 ? 20e-6 : 2e-6);
    const long one = 1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Fetch_and_op(&one, &ticket, MPI_LONG, 0, 0, MPI_SUM, win);
    MPI_Win_unlock(0, win);
    MPISIM_Compute(ticket == 0 ? 100e-6 : 1e-6);
  }
  long tickets[3];
  MPI_Gather(&ticket, 1, MPI_LONG, tickets, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ticket 0 went to rank %d\n", tickets[1] == 0 ? 1 : 2);
  MPI_Win_free(&win);
  free(task);
  MPI_Finalize();
  return 0;
}
