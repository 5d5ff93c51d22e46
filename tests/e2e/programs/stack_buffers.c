/* Every buffer the ranks hand to MPI lives on their stacks while they block: a nonblocking
 * exchange waited for with its requests on the stack, a rendezvous (the receiver reads the
 * blocked sender's stack, the sender fills the blocked receiver's), a receive posted long before
 * its message, blocking and nonblocking collectives (one with an MPI_Op of the program's), and a
 * window on the stack written by MPI_Put. Under stack copying (MPISIM_STACK_COPY=on, shared)
 * those stacks are copied out while their ranks block; the results and the predicted time must
 * not change. */
#include <mpi.h>
#include <stdio.h>

enum { kBig = 20000 }; /* ints: 80 000 bytes, above the eager limit of 64 KiB */

static long sum(const int* a, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}

/* A reduction the library does not know: other ranks' fibers run it over a blocked rank's
 * stack buffers. */
static void max_plus_one(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; ++i)
    b[i] = (a[i] > b[i] ? a[i] : b[i]) + 1;
}

/* The nonblocking exchange with the left and right neighbours. */
static int exchange(int rank, int left, int right) {
  int out[4], in[4];
  MPI_Request reqs[2];
  MPI_Status statuses[2];
  for (int i = 0; i < 4; ++i)
    out[i] = rank * 10 + i;
  MPI_Irecv(in, 4, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(out, 4, MPI_INT, right, 1, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, statuses);
  return sum(in, 4) != 40L * left + 6 || statuses[0].MPI_SOURCE != left;
}

static int rendezvous(int rank, int left, int right) {
  int out[kBig], in[kBig];
  for (int i = 0; i < kBig; ++i)
    out[i] = rank + i;
  MPI_Sendrecv(out, kBig, MPI_INT, right, 2, in, kBig, MPI_INT, left, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  return sum(in, kBig) != (long)kBig * left + (long)kBig * (kBig - 1) / 2;
}

/* Rank 1 waits for rank 0, which sends only after a barrier of all the others. */
static int late_message(int rank, int size) {
  int value = -1;
  MPI_Comm others;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 1, rank, &others);
  if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(others);
    if (rank == 0) {
      value = 4242;
      MPI_Send(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    }
  }
  MPI_Comm_free(&others);
  return size > 1 && rank == 1 && value != 4242;
}

static int collectives(int rank, int size) {
  int wrong = 0;
  int v[8], r[8];
  for (int i = 0; i < 8; ++i)
    v[i] = rank + i;
  MPI_Allreduce(v, r, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < 8; ++i)
    wrong += r[i] != size * (size - 1) / 2 + size * i;
  int root_value = rank == size - 1 ? 77 : 0;
  MPI_Bcast(&root_value, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
  wrong += root_value != 77;
  int to[size], from[size];
  for (int i = 0; i < size; ++i)
    to[i] = rank * 100 + i;
  MPI_Alltoall(to, 1, MPI_INT, from, 1, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size; ++i)
    wrong += from[i] != i * 100 + rank;
  MPI_Request req;
  int mine = rank, total = -1;
  MPI_Iallreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  wrong += total != size * (size - 1) / 2;
  MPI_Op op;
  MPI_Op_create(max_plus_one, 1, &op);
  int mine4[4], reduced[4];
  for (int i = 0; i < 4; ++i)
    mine4[i] = rank * 4 + i;
  MPI_Allreduce(mine4, reduced, 4, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Op_free(&op);
  /* Each of the size - 1 combinations adds one to the larger value; the largest is the last
   * rank's, whatever the order. */
  for (int i = 0; i < 4; ++i)
    wrong += reduced[i] < (size - 1) * 4 + i + 1 || reduced[i] > (size - 1) * 4 + i + size - 1;
  return wrong;
}

static int one_sided(int rank, int left, int right) {
  int window[4] = {-1, -1, -1, -1};
  MPI_Win win;
  MPI_Win_create(window, sizeof window, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  int value = rank;
  MPI_Put(&value, 1, MPI_INT, right, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  return window[0] != left;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int wrong[5] = {exchange(rank, left, right), rendezvous(rank, left, right),
                  late_message(rank, size), collectives(rank, size), one_sided(rank, left, right)};
  int all[5];
  MPI_Reduce(wrong, all, 5, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("stack_buffers: %d ranks; wrong: exchange %d, rendezvous %d, late message %d, "
           "collectives %d, one-sided %d\n",
           size, all[0], all[1], all[2], all[3], all[4]);
  MPI_Finalize();
  return 0;
}
