/* Request-based one-sided operations with several in flight (docs/model.md, One-sided
 * communication): in an MPI_Win_lock_all epoch every rank starts an MPI_Rget from its right
 * neighbour, an MPI_Rput to it, an MPI_Raccumulate to rank 0 and an MPI_Rget_accumulate (a
 * fetch-and-add) on rank 0 together, completes them with MPI_Waitall, MPI_Test in a loop and
 * MPI_Win_flush_all, reuses the put's buffer, and reads back what the others wrote in a
 * second epoch; then, under exclusive locks, increments a counter and reads it with both in
 * flight. Rank 0 prints every rank's line; the fetch-and-add results and the counter's reads
 * (whose order depends on timing) are summed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 8, kFields = 10 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* base;
  MPI_Win win;
  MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
  for (int i = 0; i < N; ++i)
    base[i] = 100 * rank + i;
  MPI_Win_unlock(rank, win);
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  int got[4] = {0}, put[2] = {1000 * rank, 1000 * rank + 1}, one = 1, added = rank + 1,
      fetched = -1;
  MPI_Request rq[4];
  MPI_Status sts[4];
  MPI_Win_lock_all(0, win);
  MPI_Rget(got, 4, MPI_INT, right, 0, 4, MPI_INT, win, &rq[0]);
  MPI_Rput(put, 2, MPI_INT, right, 4, 2, MPI_INT, win, &rq[1]);
  MPI_Raccumulate(&added, 1, MPI_INT, 0, 6, 1, MPI_INT, MPI_SUM, win, &rq[2]);
  MPI_Rget_accumulate(&one, 1, MPI_INT, &fetched, 1, MPI_INT, 0, 7, 1, MPI_INT, MPI_SUM, win,
                      &rq[3]);
  MPI_Waitall(4, rq, sts);
  put[0] = put[1] = -1;      /* the put's buffer may be reused once it completed */
  MPI_Win_flush(right, win); /* ... and it is done at the target after a flush */

  int polled = 0, flag = 0, again[2] = {0};
  MPI_Request one_rq;
  MPI_Rget(again, 2, MPI_INT, right, 4, 2, MPI_INT, win, &one_rq);
  while (!flag) {
    MPI_Test(&one_rq, &flag, MPI_STATUS_IGNORE);
    ++polled;
  }
  int flushed = 0;
  MPI_Rget(&flushed, 1, MPI_INT, left, 3, 1, MPI_INT, win, &one_rq);
  MPI_Win_flush_all(win);
  MPI_Wait(&one_rq, MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);

  int from_left[2], totals[2];
  MPI_Win_lock_all(0, win);
  MPI_Rget(from_left, 2, MPI_INT, rank, 4, 2, MPI_INT, win, &rq[0]);
  MPI_Rget(totals, 2, MPI_INT, 0, 6, 2, MPI_INT, win, &rq[1]);
  MPI_Waitall(2, rq, sts);
  MPI_Win_unlock_all(win);

  /* Under exclusive locks, an increment and a read of one counter in flight together: the read
   * (an accumulate with MPI_NO_OP, ordered after the increment) sees every increment before it. */
  int counted = 0;
  for (int k = 0; k < 3; ++k) {
    int seen = 0;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Raccumulate(&one, 1, MPI_INT, 0, 3, 1, MPI_INT, MPI_SUM, win, &rq[0]);
    MPI_Rget_accumulate(NULL, 0, MPI_INT, &seen, 1, MPI_INT, 0, 3, 1, MPI_INT, MPI_NO_OP, win,
                        &rq[1]);
    MPI_Waitall(2, rq, sts);
    MPI_Win_unlock(0, win);
    counted += seen;
  }

  const int line[kFields] = {got[0],  got[3],       again[0],     again[1],  polled > 0,
                             flushed, from_left[0], from_left[1], totals[0], totals[1]};
  int* all = malloc(sizeof(int) * kFields * (size_t)size);
  int fetched_sum = 0;
  MPI_Gather(line, kFields, MPI_INT, all, kFields, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Reduce(&fetched, &fetched_sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  int counted_sum = 0;
  MPI_Reduce(&counted, &counted_sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      const int* f = all + kFields * r;
      printf("rank %d: rget %d..%d, after the puts %d %d (polled %d), flushed %d, put by the "
             "left %d %d, rank 0 slots 6 and 7: %d %d\n",
             r, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]);
    }
    printf("requests: %d ranks, fetch-and-add results sum %d, counter reads under exclusive "
           "locks sum %d\n",
           size, fetched_sum, counted_sum);
  }
  free(all);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
