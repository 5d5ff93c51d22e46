/* A notification through a window flag, as lock-free one-sided codes write it: inside
 * MPI_Win_lock_all, the last rank spins on its own flag with MPI_Win_sync until every other rank
 * has put its rank + 1 into its slot and flushed. The window's service must serve those puts
 * while the rank spins.
 * usage: win_sync_spin */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  volatile int* slots;
  MPI_Win win;
  MPI_Win_allocate(size * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   (void*)&slots, &win);
  for (int i = 0; i < size; ++i)
    slots[i] = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  const int waiter = size - 1;
  if (rank == waiter) {
    long spins = 0;
    int sum = 0;
    for (int i = 0; i < waiter; ++i) {
      while (slots[i] == 0) {
        MPI_Win_sync(win);
        ++spins;
      }
      sum += slots[i];
    }
    printf("rank %d saw every put: sum %d, spun %s\n", rank, sum, spins > 0 ? "yes" : "no");
  } else {
    const int mine = rank + 1;
    MPI_Put(&mine, 1, MPI_INT, waiter, rank, 1, MPI_INT, win);
    MPI_Win_flush(waiter, win);
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
