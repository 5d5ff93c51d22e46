/* Two ranks of a node share a window (MPI_Win_allocate_shared): rank 1 tells rank 0 it is ready,
 * then waits on a flag in the window that rank 0 sets once it has written a value, as codes
 * that pass data through node memory do. With argument "sync" the waiting loop calls
 * MPI_Win_sync, which lets other ranks run under mpisim; without it the loop is the rank's own
 * code alone, which under mpisim never ends (MPISIM_OWN_CODE_NOTE says so).
 * usage: shared_flag_spin [sync] */
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int sync = argc > 1 && strcmp(argv[1], "sync") == 0;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int rank;
  MPI_Comm_rank(node, &rank);
  struct shared {
    atomic_int flag;
    int value;
  } * mine;
  MPI_Win win;
  MPI_Win_allocate_shared(rank == 0 ? (MPI_Aint)sizeof *mine : 0, 1, MPI_INFO_NULL, node, &mine,
                          &win);
  MPI_Aint bytes;
  int unit;
  struct shared* s;
  MPI_Win_shared_query(win, 0, &bytes, &unit, &s);
  if (rank == 0) atomic_store(&s->flag, 0);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Barrier(node);
  if (rank == 0) {
    int ready;
    MPI_Recv(&ready, 1, MPI_INT, 1, 0, node, MPI_STATUS_IGNORE);
    s->value = 42;
    atomic_store_explicit(&s->flag, 1, memory_order_release);
  } else if (rank == 1) {
    const int ready = 1;
    MPI_Send(&ready, 1, MPI_INT, 0, 0, node);
    long spins = 0;
    while (!atomic_load_explicit(&s->flag, memory_order_acquire)) {
      if (sync) MPI_Win_sync(win);
      ++spins;
    }
    printf("rank 1 read %d after the flag\n", s->value);
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
