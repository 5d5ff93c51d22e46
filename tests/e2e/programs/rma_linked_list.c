/* A distributed linked list built with one-sided operations in a dynamic window (the MPI-3
 * linked-list pattern): each rank appends its elements when the tail reaches its left
 * neighbour, chasing the tail with MPI_Get_accumulate(MPI_NO_OP) + MPI_Win_flush inside one
 * MPI_Win_lock_all epoch and polling MPI_Iprobe while it waits; rank 0 then walks the list and
 * counts each rank's elements. MPICH prints the same. Argument: the number of elements. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct {
  int rank;
  MPI_Aint disp;
} ptr_t;
typedef struct {
  int value;
  ptr_t next;
} elem_t;
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, np, n = argc > 1 ? atoi(argv[1]) : 100;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  elem_t** mine = malloc(sizeof(elem_t*) * (n + 1));
  int count = 0;
  ptr_t nil = {-1, 0}, head, tail;
  if (me == 0) {
    elem_t* e;
    MPI_Alloc_mem(sizeof *e, MPI_INFO_NULL, &e);
    e->value = 0;
    e->next = nil;
    MPI_Win_attach(win, e, sizeof *e);
    mine[count++] = e;
    MPI_Get_address(e, &head.disp);
  }
  head.rank = 0;
  MPI_Bcast(&head.disp, 1, MPI_AINT, 0, MPI_COMM_WORLD);
  tail = head;
  int todo = n / np + (me < n % np), i = me == 0 ? 1 : 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  for (; i < todo; i++) {
    elem_t* e;
    MPI_Alloc_mem(sizeof *e, MPI_INFO_NULL, &e);
    e->value = me;
    e->next = nil;
    MPI_Win_attach(win, e, sizeof *e);
    mine[count++] = e;
    ptr_t newp = {me, 0};
    MPI_Get_address(e, &newp.disp);
    int done = 0;
    while (!done) {
      if (tail.rank == (me + np - 1) % np) {
        MPI_Accumulate(&newp, sizeof newp, MPI_BYTE, tail.rank,
                       (MPI_Aint) & ((elem_t*)tail.disp)->next, sizeof newp, MPI_BYTE, MPI_REPLACE,
                       win);
        MPI_Win_flush(tail.rank, win);
        done = 1;
        tail = newp;
      } else {
        ptr_t next;
        MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, &next, sizeof next, MPI_BYTE, tail.rank,
                           (MPI_Aint) & ((elem_t*)tail.disp)->next, sizeof next, MPI_BYTE,
                           MPI_NO_OP, win);
        MPI_Win_flush(tail.rank, win);
        if (next.rank != -1)
          tail = next;
        else {
          int flag;
          MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
      }
    }
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    int *per = calloc(np, sizeof(int)), total = 0;
    MPI_Win_lock_all(0, win);
    for (ptr_t at = head; at.rank != -1; total++) {
      elem_t e;
      MPI_Get(&e, sizeof e, MPI_BYTE, at.rank, at.disp, sizeof e, MPI_BYTE, win);
      MPI_Win_flush(at.rank, win);
      per[e.value]++;
      at = e.next;
    }
    MPI_Win_unlock_all(win);
    printf("list of %d:", total);
    for (int r = 0; r < np; r++)
      printf(" %d", per[r]);
    printf("\n");
    free(per);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d appended %d\n", me, count);
  for (int k = 0; k < count; k++) {
    MPI_Win_detach(win, mine[k]);
    MPI_Free_mem(mine[k]);
  }
  free(mine);
  MPI_Win_free(&win);
  MPI_Finalize();
}
