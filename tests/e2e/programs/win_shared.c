/* MPI-3 shared memory as hybrid codes use it: the ranks of a node allocate one window with
 * MPI_Win_allocate_shared, each writes its part with plain stores, and after MPI_Win_sync and a
 * barrier reads its right neighbour's part through the pointer MPI_Win_shared_query gives.
 * Rank r's part holds r + 1 ints, r * 100 + i. With the argument "world" the window spans
 * MPI_COMM_WORLD (all ranks on one node, as under mpiexec on one machine); otherwise the ranks
 * of MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm node;
  if (argc > 1 && strcmp(argv[1], "world") == 0) {
    MPI_Comm_dup(MPI_COMM_WORLD, &node);
  } else {
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  }
  int me, n;
  MPI_Comm_rank(node, &me);
  MPI_Comm_size(node, &n);
  int* mine;
  MPI_Win win;
  MPI_Win_allocate_shared((me + 1) * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  for (int i = 0; i <= me; ++i)
    mine[i] = me * 100 + i;
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);
  const int right = (me + 1) % n;
  MPI_Aint size;
  int unit;
  int* theirs;
  MPI_Win_shared_query(win, right, &size, &unit, &theirs);
  const long count = size / unit;
  long sum = 0;
  for (long i = 0; i < count; ++i)
    sum += theirs[i];
  int* first;
  MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &unit, &first);
  /* Contiguous by default: rank m's part starts after the parts of ranks 0..m-1. */
  const int contiguous = mine == first + me * (me + 1) / 2;
  MPI_Win_unlock_all(win);
  printf("rank %d: node of %d, right %d has %ld ints summing to %ld, contiguous %d\n", rank, n,
         right, count, sum, contiguous);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
