/* A hybrid code's node-shared window: the ranks of a node write the leader's part, with MPI_Put
 * and then with plain stores, and read all of it with plain loads after the closing
 * MPI_Win_fence. Every rank sees every write of its node then, as with MPICH, whose fence is a
 * barrier.
 * usage: shared_window_fence */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int r, n;
  MPI_Comm_rank(node, &r);
  MPI_Comm_size(node, &n);
  int *mine, *lead;
  MPI_Win win;
  MPI_Win_allocate_shared(r == 0 ? 2 * n * (MPI_Aint)sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
                          node, &mine, &win);
  MPI_Aint bytes;
  int unit;
  MPI_Win_shared_query(win, 0, &bytes, &unit, &lead);
  MPI_Win_fence(0, win);
  if (r == 0)
    for (int i = 0; i < 2 * n; ++i)
      lead[i] = 0;
  MPI_Win_fence(0, win);
  const int v = r + 1;
  MPI_Put(&v, 1, MPI_INT, 0, r, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  int put = 0;
  for (int i = 0; i < n; ++i)
    put += lead[i] == i + 1;
  lead[n + r] = v;
  MPI_Win_fence(0, win);
  int stored = 0;
  for (int i = 0; i < n; ++i)
    stored += lead[n + i] == i + 1;
  printf("rank %d: after the fences %s of the node's puts and %s of its stores are there\n",
         world_rank, put == n ? "all" : "not all", stored == n ? "all" : "not all");
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
