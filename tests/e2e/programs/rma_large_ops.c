/* One-sided operations larger than the eager limit (a distributed transpose, a global sum into
 * one rank's array: 128 KiB and 256 KiB per operation), in fence epochs and in
 * post/start/complete/wait epochs, on a duplicated and a reversed communicator. Each rank
 * prints a checksum of what it holds after each epoch; MPICH prints the same. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { COUNT = 32768 };

static long checksum(const int* a, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s = (s * 31 + a[i]) % 1000000007L;
  return s;
}

static void run(MPI_Comm comm, const char* name) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int* win_buf = calloc((size_t)COUNT * size, sizeof(int));
  int* mine = malloc((size_t)COUNT * size * sizeof(int));
  for (int i = 0; i < COUNT * size; ++i)
    mine[i] = rank * 1000003 + i;
  MPI_Win win;
  MPI_Win_create(win_buf, (MPI_Aint)COUNT * size * sizeof(int), sizeof(int), MPI_INFO_NULL, comm,
                 &win);
  /* Every rank adds its block to rank 0's window, and puts block t into rank t's slot. */
  MPI_Win_fence(0, win);
  MPI_Accumulate(mine, COUNT, MPI_INT, 0, 0, COUNT, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  long after_sum = checksum(win_buf, COUNT);
  MPI_Win_fence(0, win); /* nobody puts into a window its owner is still reading */
  for (int t = 0; t < size; ++t)
    MPI_Put(mine + t * COUNT, COUNT, MPI_INT, t, (MPI_Aint)rank * COUNT, COUNT, MPI_INT, win);
  MPI_Win_fence(0, win);
  long after_transpose = checksum(win_buf, COUNT * size);
  /* Generalized active target: each rank gets all but the last block of its right neighbour's
   * window, and replaces that last block. */
  MPI_Group all, peer;
  MPI_Comm_group(comm, &all);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Group_incl(all, 1, &left, &peer);
  MPI_Win_post(peer, 0, win);
  MPI_Group_free(&peer);
  MPI_Group_incl(all, 1, &right, &peer);
  MPI_Win_start(peer, 0, win);
  int* got = malloc((size_t)COUNT * size * sizeof(int));
  const int head = COUNT * (size - 1);
  MPI_Get(got, head, MPI_INT, right, 0, head, MPI_INT, win);
  MPI_Accumulate(mine, COUNT, MPI_INT, right, head, COUNT, MPI_INT, MPI_REPLACE, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  printf("%s rank %d: sum %ld, transpose %ld, neighbour %ld, after replace %ld\n", name, rank,
         after_sum, after_transpose, checksum(got, head), checksum(win_buf, COUNT * size));
  MPI_Group_free(&peer);
  MPI_Group_free(&all);
  MPI_Win_free(&win);
  free(got);
  free(mine);
  free(win_buf);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup, reversed;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
  run(dup, "dup");
  run(reversed, "reversed");
  MPI_Comm_free(&dup);
  MPI_Comm_free(&reversed);
  MPI_Finalize();
  return 0;
}
