/* Dynamic windows (MPI_Win_create_dynamic, MPI_Win_attach, MPI_Win_detach), in the style of the
 * MPICH tests: memory is attached after the window is made, and origins address it by the
 * address its owner publishes (MPI_Get_address, gathered with MPI_Allgather).
 *
 *   rma_dynamic            every rank attaches 4 ints and puts rank*10+i into its right
 *                          neighbour's (fence); takes a ticket from a counter attached on rank 0
 *                          (MPI_Fetch_and_op under an exclusive lock); detaches, attaches a
 *                          double and reads its left neighbour's under MPI_Win_lock_all; a hint
 *                          set after creation comes back from MPI_Win_get_info
 *   rma_dynamic outside    rank 0 puts one int just past what rank 1 attached: refused
 *   rma_dynamic overlap    rank 0 attaches overlapping memory: refused
 * Prints one line per rank, then rank 0 the totals. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "all";
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int flavor = 0, *flavor_attr = NULL, found = 0;
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor_attr, &found);
  if (found) flavor = *flavor_attr;
  /* Hints given later are handed back (MPI_Win_set_info, MPI_Win_get_info). */
  MPI_Info hints, used;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "accumulate_ordering", "none");
  MPI_Win_set_info(win, hints);
  MPI_Info_free(&hints);
  MPI_Win_get_info(win, &used);
  char ordering[32] = "";
  int have_ordering = 0;
  MPI_Info_get(used, "accumulate_ordering", sizeof ordering - 1, ordering, &have_ordering);
  MPI_Info_free(&used);

  int* slots = calloc(4, sizeof *slots);
  int counter = 0;
  MPI_Win_attach(win, slots, 4 * sizeof *slots);
  if (rank == 0) MPI_Win_attach(win, &counter, sizeof counter);
  MPI_Aint mine[2], *all = malloc(2 * (size_t)size * sizeof *all);
  MPI_Get_address(slots, &mine[0]);
  MPI_Get_address(&counter, &mine[1]);
  MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  if (strcmp(mode, "overlap") == 0) {
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int err = rank == 0 ? MPI_Win_attach(win, slots + 2, sizeof *slots) : MPI_SUCCESS, cls = 0;
    MPI_Error_class(err, &cls);
    if (rank == 0) printf("rank 0: overlapping attach refused %d\n", cls == MPI_ERR_RMA_ATTACH);
    MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
  }
  if (strcmp(mode, "outside") == 0) {
    if (rank == 0) {
      const int one = 1;
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
      MPI_Put(&one, 1, MPI_INT, 1, all[2] + 4 * (MPI_Aint)sizeof(int), 1, MPI_INT, win);
      MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }

  /* Fence: rank r writes r*10 + i into its right neighbour's slots. */
  int out[4];
  for (int i = 0; i < 4; ++i)
    out[i] = rank * 10 + i;
  MPI_Win_fence(0, win);
  MPI_Put(out, 4, MPI_INT, right, all[2 * right], 4, MPI_INT, win);
  MPI_Win_fence(0, win);

  /* Passive: a ticket from rank 0's counter. */
  int one = 1, ticket = -1;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Fetch_and_op(&one, &ticket, MPI_INT, 0, all[1], MPI_SUM, win);
  MPI_Win_unlock(0, win);

  /* Detach the slots, attach a double, read the left neighbour's. */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, slots);
  double value = rank + 0.5, got = -1;
  MPI_Win_attach(win, &value, sizeof value);
  MPI_Get_address(&value, &mine[0]);
  MPI_Allgather(mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  MPI_Get(&got, 1, MPI_DOUBLE, left, all[left], 1, MPI_DOUBLE, win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, &value);

  printf("rank %d: flavor dynamic %d, ordering %s, slots %d %d %d %d, left value %.1f\n", rank,
         flavor == MPI_WIN_FLAVOR_DYNAMIC, have_ordering ? ordering : "(none)", slots[0], slots[1],
         slots[2], slots[3], got);
  int sum = 0;
  MPI_Reduce(&ticket, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_detach(win, &counter);
    printf("dynamic: %d ranks, counter %d, ticket sum %d\n", size, counter, sum);
  }
  MPI_Win_free(&win);
  free(slots);
  free(all);
  MPI_Finalize();
  return 0;
}
