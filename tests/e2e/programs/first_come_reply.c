/* A reply to whoever comes first: rank 0 hands rank 1 an 8-byte task and rank 2 a 60000-byte one,
 * then receives their answers from MPI_ANY_SOURCE and gives the first to answer the big job (a
 * large reply, then 100 us of work on it) and the second a small one. Rank 1 works 20 us on its
 * task, rank 2 2 us (and 80 us more after answering): at 12 GB/s (5 us for rank 2's task) rank 2
 * answers first, at 1.2 GB/s (50 us) rank 1. A record made on one network therefore keeps replies
 * meant for the other order, and on the other the big job waits for rank 2's 80 us. */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <stdlib.h>

enum { kLarge = 60000, kSmall = 8, kRequest = 1, kBigJob = 2, kSmallJob = 3 };

static void coordinator(char* buf) {
  MPI_Send(buf, kSmall, MPI_CHAR, 1, kRequest, MPI_COMM_WORLD);
  MPI_Send(buf, kLarge, MPI_CHAR, 2, kRequest, MPI_COMM_WORLD);
  int order[2];
  for (int k = 0; k < 2; ++k) {
    MPI_Status st;
    MPI_Recv(buf, kLarge, MPI_CHAR, MPI_ANY_SOURCE, kRequest, MPI_COMM_WORLD, &st);
    order[k] = st.MPI_SOURCE;
    MPISIM_Compute(10e-6);
    if (k == 0)
      MPI_Send(buf, kLarge, MPI_CHAR, st.MPI_SOURCE, kBigJob, MPI_COMM_WORLD);
    else
      MPI_Send(buf, kSmall, MPI_CHAR, st.MPI_SOURCE, kSmallJob, MPI_COMM_WORLD);
  }
  printf("first came rank %d, then rank %d\n", order[0], order[1]);
}

static void worker(char* buf, int rank) {
  MPI_Recv(buf, kLarge, MPI_CHAR, 0, kRequest, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPISIM_Compute(rank == 1 ? 20e-6 : 2e-6);
  MPI_Send(buf, kSmall, MPI_CHAR, 0, kRequest, MPI_COMM_WORLD);
  if (rank == 2) MPISIM_Compute(80e-6);
  MPI_Status st;
  MPI_Recv(buf, kLarge, MPI_CHAR, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  MPISIM_Compute(st.MPI_TAG == kBigJob ? 100e-6 : 1e-6);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    if (rank == 0) fprintf(stderr, "first_come_reply: run with 3 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char* buf = calloc(kLarge, 1);
  if (rank == 0)
    coordinator(buf);
  else
    worker(buf, rank);
  free(buf);
  MPI_Finalize();
  return 0;
}
