/* Receives freed while active (MPI_Request_free), as codes that fire and forget use them: the
 * program learns that the data came from a barrier after the send, and reads the buffer then,
 * without another point-to-point call in between. MPICH has written the buffer by then.
 * Rank 1 sends, after the first barrier, one message to a freed receive, one to a freed
 * persistent receive, and sixteen to freed receives among forty-eight it waits for.
 * usage: freed_receive */
#include <mpi.h>
#include <stdio.h>

enum { kMany = 64 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int one = -1, started = -1, many[kMany];
  MPI_Request one_req, persistent, reqs[kMany];
  if (rank == 0) {
    MPI_Irecv(&one, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &one_req);
    MPI_Request_free(&one_req);
    MPI_Recv_init(&started, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &persistent);
    MPI_Start(&persistent);
    MPI_Request_free(&persistent);
    for (int i = 0; i < kMany; ++i) {
      many[i] = -1;
      MPI_Irecv(&many[i], 1, MPI_INT, 1, 100 + i, MPI_COMM_WORLD, &reqs[i]);
    }
    for (int i = 0; i < kMany; i += 4)
      MPI_Request_free(&reqs[i]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    const int a = 1000, b = 2000;
    MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    for (int i = kMany - 1; i >= 0; --i) {
      const int v = 10 * i;
      MPI_Send(&v, 1, MPI_INT, 0, 100 + i, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    /* Read before any other call: the barrier told the rank that the data is there. */
    int freed_ok = 0;
    for (int i = 0; i < kMany; i += 4)
      freed_ok += many[i] == 10 * i;
    printf("after the barrier: one %d, persistent %d, %d of %d freed ones\n", one, started,
           freed_ok, kMany / 4);
    int waited = 0, right = 0;
    for (;;) {
      int done, index[kMany];
      MPI_Status st[kMany];
      MPI_Waitsome(kMany, reqs, &done, index, st);
      if (done == MPI_UNDEFINED) break;
      for (int k = 0; k < done; ++k) {
        ++waited;
        right += many[index[k]] == 10 * index[k] && st[k].MPI_TAG == 100 + index[k];
      }
    }
    printf("waited for %d, %d right\n", waited, right);
  }
  /* A value read after the barriers goes into a reduction at once. */
  double v = rank == 0 ? one : 0, total;
  MPI_Allreduce(&v, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("allreduce of what rank 0 received: %g\n", total);
  MPI_Finalize();
  return 0;
}
