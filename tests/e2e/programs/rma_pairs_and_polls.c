// One-sided operations as codes use them beyond plain sums: MINLOC/MAXLOC accumulates on the
// padded pair types (an argmin kept in a window), the window's memory model, and a target that
// polls MPI_Win_test while it answers a message its origin needs before the epoch. Every rank
// prints what it saw; the lines must equal MPICH's.
#include <mpi.h>
#include <stdio.h>

typedef struct {
  double value;
  int index;
} DoubleInt;
typedef struct {
  long value;
  int index;
} LongInt;
typedef struct {
  short value;
  int index;
} ShortInt;

static void pairs(int rank, int size) {
  DoubleInt best[3] = {{1e9, -1}, {1e9, -1}, {-1e9, -1}};
  LongInt big[2] = {{-100, -1}, {-100, -1}};
  ShortInt small[2] = {{1000, -1}, {1000, -1}};
  MPI_Win wd, wl, ws;
  MPI_Win_create(best, sizeof best, sizeof(DoubleInt), MPI_INFO_NULL, MPI_COMM_WORLD, &wd);
  MPI_Win_create(big, sizeof big, sizeof(LongInt), MPI_INFO_NULL, MPI_COMM_WORLD, &wl);
  MPI_Win_create(small, sizeof small, sizeof(ShortInt), MPI_INFO_NULL, MPI_COMM_WORLD, &ws);
  MPI_Win_fence(0, wd);
  MPI_Win_fence(0, wl);
  MPI_Win_fence(0, ws);
  // Each rank offers values that make a different rank win each element.
  DoubleInt mine[3] = {{(double)((rank * 7) % size), rank},
                       {(double)(size - rank), rank},
                       {(double)((rank * 3) % size), rank}};
  MPI_Accumulate(mine, 2, MPI_DOUBLE_INT, 0, 0, 2, MPI_DOUBLE_INT, MPI_MINLOC, wd);
  MPI_Accumulate(&mine[2], 1, MPI_DOUBLE_INT, 0, 2, 1, MPI_DOUBLE_INT, MPI_MAXLOC, wd);
  LongInt l[2] = {{(long)((rank * 5) % size), rank}, {(long)rank - size, rank}};
  MPI_Accumulate(l, 2, MPI_LONG_INT, 0, 0, 2, MPI_LONG_INT, MPI_MAXLOC, wl);
  ShortInt s[2] = {{(short)((rank * 3 + 1) % size), rank}, {(short)(2 * rank), rank}};
  MPI_Accumulate(s, 2, MPI_SHORT_INT, 0, 0, 2, MPI_SHORT_INT, MPI_MINLOC, ws);
  MPI_Win_fence(0, wd);
  MPI_Win_fence(0, wl);
  MPI_Win_fence(0, ws);
  // And what an atomic fetches: rank 1 then reads and lowers element 0 on rank 0.
  DoubleInt old[1] = {{0, 0}}, lower[1] = {{-5.5, 100 + rank}};
  if (rank == 1)
    MPI_Get_accumulate(lower, 1, MPI_DOUBLE_INT, old, 1, MPI_DOUBLE_INT, 0, 0, 1, MPI_DOUBLE_INT,
                       MPI_MINLOC, wd);
  MPI_Win_fence(0, wd);
  if (rank == 0)
    printf("rank 0: double (%g,%d) (%g,%d) (%g,%d) long (%ld,%d) (%ld,%d) short (%d,%d) (%d,%d)\n",
           best[0].value, best[0].index, best[1].value, best[1].index, best[2].value, best[2].index,
           big[0].value, big[0].index, big[1].value, big[1].index, small[0].value, small[0].index,
           small[1].value, small[1].index);
  if (rank == 1) printf("rank 1: fetched (%g,%d)\n", old[0].value, old[0].index);
  int* model;
  int found;
  MPI_Win_get_attr(wd, MPI_WIN_MODEL, &model, &found);
  printf("rank %d: window model unified %d\n", rank, found && *model == MPI_WIN_UNIFIED);
  MPI_Win_free(&wd);
  MPI_Win_free(&wl);
  MPI_Win_free(&ws);
}

// Rank 1 asks rank 0 for a value by message, then puts it into rank 0's window in a
// post/start epoch; rank 0 answers while it polls MPI_Win_test.
static void polled_epoch(int rank) {
  static int buf[2];
  MPI_Win w;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Group world, peer;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int other = 1 - rank;
  if (rank < 2) {
    MPI_Group_incl(world, 1, &other, &peer);
    if (rank == 0) {
      MPI_Win_post(peer, 0, w);
      int ask = 0, flag = 0, answered = 0, done = 0;
      MPI_Request asked;
      MPI_Irecv(&ask, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &asked);
      while (!flag) {
        if (!answered) {
          MPI_Test(&asked, &done, MPI_STATUS_IGNORE);
          if (done) {
            const int answer = 40 + ask;
            MPI_Send(&answer, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
            answered = 1;
          }
        }
        MPI_Win_test(w, &flag);
      }
      printf("rank 0: the epoch put %d %d\n", buf[0], buf[1]);
    } else {
      const int ask = 2;
      int answer = 0;
      MPI_Send(&ask, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
      MPI_Recv(&answer, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const int put[2] = {answer, -answer};
      MPI_Win_start(peer, 0, w);
      MPI_Put(put, 2, MPI_INT, 0, 0, 2, MPI_INT, w);
      MPI_Win_complete(w);
    }
    MPI_Group_free(&peer);
  }
  MPI_Group_free(&world);
  MPI_Win_free(&w);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  pairs(rank, size);
  polled_epoch(rank);
  MPI_Finalize();
  return 0;
}
