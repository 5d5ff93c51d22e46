/* Lock contention on a rank's own window. Rank 0 locks its window exclusively, fills it with
 * plain stores, and only then tells rank 1 to lock it and operate on it; a token goes round the
 * other ranks before rank 0 unlocks. A lock on the caller's own window is held when
 * MPI_Win_lock returns (the stores are in the epoch), so rank 1's operations must wait for rank
 * 0's unlock: rank 0 sees its stores untouched until then, and its receive from any source gets
 * the token, never rank 1's "done". Rank 1 runs one kind of operation per round: short, long
 * and strided puts, accumulates and gets. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 2048, STRIDE = 11, BLOCKS = 7, LONG = 512, ROUNDS = 10 };

/* Round r's operation of rank 1 on rank 0's window. */
static void operate(int round, MPI_Win win, const int* src, int* got, MPI_Datatype strided) {
  const int count = round < 5 ? 1 : LONG;
  switch (round % 5) {
  case 0:
    MPI_Put(src, count, MPI_INT, 0, 7, count, MPI_INT, win);
    break;
  case 1:
    MPI_Accumulate(src, count, MPI_INT, 0, 900, count, MPI_INT, MPI_SUM, win);
    break;
  case 2:
    MPI_Get(got, count, MPI_INT, 0, 1500, count, MPI_INT, win);
    break;
  case 3:
    MPI_Put(src, 1, strided, 0, 7, 1, strided, win);
    break;
  default:
    MPI_Get(got, 1, strided, 0, 1500, 1, strided, win);
    break;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* The token's ring: 0, 2, 3, ..., size - 1, back to 0. */
  int next = rank + 1 == 1 ? 2 : rank + 1;
  if (next >= size) next = 0;
  MPI_Datatype strided;
  MPI_Type_vector(BLOCKS, 1, STRIDE, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  int* mem = NULL;
  if (rank == 0) MPI_Alloc_mem(N * sizeof(int), MPI_INFO_NULL, &mem);
  MPI_Win win;
  MPI_Win_create(mem, rank == 0 ? N * sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &win);
  int* src = malloc(N * sizeof(int));
  int* got = calloc(N, sizeof(int));
  for (int j = 0; j < N; ++j)
    src[j] = 1000 + j;
  long checksum = 0;
  int intruded = 0, early_done = 0;
  for (int round = 0; round < ROUNDS; ++round) {
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
      for (int j = 0; j < N; ++j)
        mem[j] = j;
      MPI_Send(MPI_BOTTOM, 0, MPI_INT, 1, round, MPI_COMM_WORLD);
      MPI_Send(MPI_BOTTOM, 0, MPI_INT, next, round, MPI_COMM_WORLD);
      MPI_Status st;
      MPI_Recv(MPI_BOTTOM, 0, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, &st);
      early_done += st.MPI_SOURCE == 1;
      for (int j = 0; j < N; ++j)
        intruded += mem[j] != j;
      MPI_Win_unlock(0, win);
      if (st.MPI_SOURCE != 1)
        MPI_Recv(MPI_BOTTOM, 0, MPI_INT, 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int j = 0; j < N; ++j)
        checksum += (long)mem[j] * (j % 13 + 1);
    } else if (rank == 1) {
      MPI_Recv(MPI_BOTTOM, 0, MPI_INT, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
      operate(round, win, src, got, strided);
      MPI_Win_unlock(0, win);
      for (int j = 0; j < N; ++j)
        checksum += (long)got[j] * (j % 7 + 1);
      MPI_Send(MPI_BOTTOM, 0, MPI_INT, 0, round, MPI_COMM_WORLD);
    } else {
      MPI_Recv(MPI_BOTTOM, 0, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(MPI_BOTTOM, 0, MPI_INT, next, round, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    printf("rank 0: %d rounds, %d stores overwritten while locked, %d early done, checksum %ld\n",
           ROUNDS, intruded, early_done, checksum);
  if (rank == 1) printf("rank 1: checksum %ld\n", checksum);
  MPI_Win_free(&win);
  if (mem) MPI_Free_mem(mem);
  MPI_Type_free(&strided);
  free(src);
  free(got);
  MPI_Finalize();
  return 0;
}
