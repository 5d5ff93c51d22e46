/* Passive target one-sided communication as codes use it:
 * - a shared task counter (NWChem's nxtval, dynamic load balancing): MPI_Fetch_and_op under an
 *   exclusive lock on rank 0, K tickets per rank;
 * - a read-modify-write held across MPI_Win_flush under an exclusive lock (a lost update shows
 *   if the lock is not held between the get and the put);
 * - MPI_Win_lock_all, a put into the right neighbour's slot, MPI_Win_flush_all, MPI_Win_unlock_all;
 * - MPI_Accumulate of doubles into the last rank under shared locks;
 * - a strided MPI_Get of a derived type from a window made by MPI_Win_allocate;
 * - MPI_Rget and MPI_Raccumulate in an MPI_Win_lock_all epoch;
 * - MPI_Compare_and_swap on a lock word: one winner;
 * - a target that computes (or sleeps) while the others lock it.
 * Rank 0 prints totals that any correct MPI gives; with the argument "detail" each rank prints
 * one line with everything it got (the tickets too, which depend on timing), for the invariant.
 * The argument "nolocks" locks a window made with the info no_locks=true: erroneous. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { K = 5 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int detail = argc > 1 && strcmp(argv[1], "detail") == 0;
  const int last = size - 1, right = (rank + 1) % size, left = (rank + size - 1) % size;

  if (argc > 1 && strcmp(argv[1], "nolocks") == 0) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    int x = 0;
    MPI_Win w;
    MPI_Win_create(&x, sizeof x, sizeof x, info, MPI_COMM_WORLD, &w);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
  }

  /* Window of each rank: [0] counter, [1] rmw value, [2] slot from the left, [3] lock word. */
  long cells[4] = {0, 0, -1, -1};
  MPI_Win win;
  MPI_Win_create(cells, sizeof cells, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

  /* 1. Shared counter. The target (rank 0) is busy at first: the others' tickets do not wait
   * for it to call MPI (docs/model.md). */
  if (rank == 0) usleep(2000);
  long tickets[K], ticket_sum = 0;
  const long one = 1;
  for (int k = 0; k < K; ++k) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Fetch_and_op(&one, &tickets[k], MPI_LONG, 0, 0, MPI_SUM, win);
    MPI_Win_unlock(0, win);
    ticket_sum += tickets[k];
  }

  /* 2. Read-modify-write under an exclusive lock held across a flush. */
  for (int k = 0; k < K; ++k) {
    long v;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, last, 0, win);
    MPI_Get(&v, 1, MPI_LONG, last, 1, 1, MPI_LONG, win);
    MPI_Win_flush(last, win);
    v += rank + 1;
    MPI_Put(&v, 1, MPI_LONG, last, 1, 1, MPI_LONG, win);
    MPI_Win_unlock(last, win);
  }

  /* 3. Lock all: a put into the right neighbour's slot, a lock word contested by all. */
  const long gift = 1000 + rank, free_word = -1, me = rank;
  long old_word = 0;
  MPI_Win_lock_all(0, win);
  MPI_Put(&gift, 1, MPI_LONG, right, 2, 1, MPI_LONG, win);
  MPI_Compare_and_swap(&me, &free_word, &old_word, MPI_LONG, 0, 3, win);
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);
  const int won = old_word == -1;

  /* 4. Accumulate of doubles into the last rank under shared locks. */
  double acc[3] = {0, 0, 0};
  MPI_Win accw;
  MPI_Win_create(acc, sizeof acc, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &accw);
  const double add[3] = {rank, 0.5, rank * rank};
  MPI_Win_lock(MPI_LOCK_SHARED, last, 0, accw);
  MPI_Accumulate(add, 3, MPI_DOUBLE, last, 0, 3, MPI_DOUBLE, MPI_SUM, accw);
  MPI_Win_unlock(last, accw);

  /* 5. A strided get from an allocated window: every other int of the left neighbour's. */
  int* shared;
  MPI_Win alloc;
  MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &shared, &alloc);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, alloc);
  for (int i = 0; i < 8; ++i)
    shared[i] = rank * 10 + i;
  MPI_Win_unlock(rank, alloc);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Datatype every_other;
  MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int got[4];
  MPI_Win_lock(MPI_LOCK_SHARED, left, 0, alloc);
  MPI_Get(got, 4, MPI_INT, left, 1, 1, every_other, alloc);
  MPI_Win_unlock(left, alloc);
  MPI_Type_free(&every_other);

  /* 6. Request-based operations in a lock-all epoch: a get from the right neighbour, a count
   * into rank 0's first int. */
  int r7 = -1;
  const int one_int = 1;
  MPI_Request rq[2];
  MPI_Win_lock_all(0, alloc);
  MPI_Rget(&r7, 1, MPI_INT, right, 7, 1, MPI_INT, alloc, &rq[0]);
  MPI_Raccumulate(&one_int, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, alloc, &rq[1]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(alloc);

  MPI_Barrier(MPI_COMM_WORLD);
  /* Each rank reads its own window under a lock to itself. */
  long mine[4];
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
  MPI_Get(mine, 4, MPI_LONG, rank, 0, 4, MPI_LONG, win);
  MPI_Win_unlock(rank, win);

  long totals[2] = {ticket_sum, won}, all[2];
  MPI_Reduce(totals, all, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("passive: %d ranks, counter %ld, ticket sum %ld, cas winners %ld, owner valid %d, "
           "raccumulated %d\n",
           size, mine[0], all[0], all[1], mine[3] >= 0 && mine[3] < size, shared[0]);
  if (rank == last)
    printf("passive: rmw %ld, accumulated %.1f %.1f %.1f\n", mine[1], acc[0], acc[1], acc[2]);
  if (detail) {
    char line[256];
    int n = snprintf(line, sizeof line, "rank %d: tickets", rank);
    for (int k = 0; k < K; ++k)
      n += snprintf(line + n, sizeof line - n, " %ld", tickets[k]);
    /* One printf per line: the lines of ranks in other host processes do not cut into it. */
    printf("%s cas %ld slot %ld got %d %d %d %d rget %d\n", line, old_word, mine[2], got[0], got[1],
           got[2], got[3], r7);
  } else {
    printf("passive: rank %d: slot %ld, got %d %d %d %d, rget %d\n", rank, mine[2], got[0], got[1],
           got[2], got[3], r7);
  }
  MPI_Win_free(&alloc);
  MPI_Win_free(&accw);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
