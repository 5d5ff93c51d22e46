/* Generalized requests as a library layered on MPI uses them (an I/O or task library that
 * reports its own operations through MPI requests): the query callback fills the status with
 * MPI_Status_set_elements and MPI_Status_set_cancelled, the free callback runs once, the cancel
 * callback learns whether the operation was complete; MPI_Waitall mixes a generalized request
 * with a receive; MPI_Request_free before completion frees when the program completes it; the
 * query callback runs in the wait, so it sees what the library did after MPI_Grequest_complete;
 * a query callback's error is the wait's. Each rank prints what it saw; MPICH prints the same. */
#include <mpi.h>
#include <stdio.h>

struct op {
  int elements;
  int cancelled;
  int frees;
  int cancel_calls;
  int cancel_saw_complete;
};

static int query(void* extra, MPI_Status* status) {
  struct op* o = extra;
  MPI_Status_set_elements(status, MPI_INT, o->elements);
  MPI_Status_set_cancelled(status, o->cancelled);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}

static int query_fails(void* extra, MPI_Status* status) {
  (void)extra, (void)status;
  return MPI_ERR_OTHER;
}

static int release(void* extra) {
  ((struct op*)extra)->frees++;
  return MPI_SUCCESS;
}

static int cancel(void* extra, int complete) {
  struct op* o = extra;
  o->cancel_calls++;
  o->cancel_saw_complete = complete;
  if (!complete) o->cancelled = 1;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* 1. Complete, then wait: the status is the query's. */
  struct op a = {5 + rank, 0, 0, 0, -1};
  MPI_Request r;
  MPI_Grequest_start(query, release, cancel, &a, &r);
  int flag = -1;
  MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  const int pending_before = !flag;
  MPI_Grequest_complete(r);
  MPI_Status st;
  MPI_Wait(&r, &st);
  int count = -1, cancelled = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  MPI_Test_cancelled(&st, &cancelled);

  /* 2. Cancel before completion. */
  struct op b = {1, 0, 0, 0, -1};
  MPI_Grequest_start(query, release, cancel, &b, &r);
  MPI_Cancel(&r);
  MPI_Grequest_complete(r);
  MPI_Wait(&r, &st);
  int cancelled_b = -1;
  MPI_Test_cancelled(&st, &cancelled_b);

  /* 3. Waitall over a generalized request and a receive from the left neighbour. */
  struct op c = {3, 0, 0, 0, -1};
  MPI_Request rs[2];
  int got = -1, mine = rank;
  MPI_Grequest_start(query, release, cancel, &c, &rs[0]);
  MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &rs[1]);
  MPI_Send(&mine, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  MPI_Grequest_complete(rs[0]);
  MPI_Status sts[2];
  MPI_Waitall(2, rs, sts);
  int count_c = -1;
  MPI_Get_count(&sts[0], MPI_INT, &count_c);

  /* 4. Freed before completion: the free callback runs once it is completed. */
  struct op d = {0, 0, 0, 0, -1};
  MPI_Grequest_start(query, release, cancel, &d, &r);
  MPI_Request keep = r;
  MPI_Request_free(&r);
  const int frees_before = d.frees;
  MPI_Grequest_complete(keep);

  /* 5. The library updates the operation after completing it: the wait's query sees that. */
  struct op e = {1, 0, 0, 0, -1};
  MPI_Grequest_start(query, release, cancel, &e, &r);
  MPI_Grequest_complete(r);
  e.elements = 9;
  MPI_Wait(&r, &st);
  int count_e = -1;
  MPI_Get_count(&st, MPI_INT, &count_e);

  /* 6. A query callback that fails: its error comes back from MPI_Wait and in Waitall's status. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  struct op f = {0, 0, 0, 0, -1};
  MPI_Grequest_start(query_fails, release, cancel, &f, &r);
  MPI_Grequest_complete(r);
  int wait_class = -1, waitall_class = -1, status_class = -1;
  MPI_Error_class(MPI_Wait(&r, &st), &wait_class);
  MPI_Grequest_start(query_fails, release, cancel, &f, &rs[0]);
  MPI_Grequest_complete(rs[0]);
  rs[1] = MPI_REQUEST_NULL;
  MPI_Error_class(MPI_Waitall(2, rs, sts), &waitall_class);
  MPI_Error_class(sts[0].MPI_ERROR, &status_class);

  printf("rank %d: pending %d, count %d, cancelled %d, frees %d | cancel calls %d saw complete %d, "
         "cancelled %d, frees %d | waitall count %d got %d frees %d | freed early %d then %d\n",
         rank, pending_before, count, cancelled, a.frees, b.cancel_calls, b.cancel_saw_complete,
         cancelled_b, b.frees, count_c, got, c.frees, frees_before, d.frees);
  printf(
      "rank %d: updated after completion: count %d | failing query: MPI_Wait class %d "
      "(MPI_ERR_OTHER %d), MPI_Waitall class %d (MPI_ERR_IN_STATUS %d), its status %d, frees %d\n",
      rank, count_e, wait_class, wait_class == MPI_ERR_OTHER, waitall_class,
      waitall_class == MPI_ERR_IN_STATUS, status_class == MPI_ERR_OTHER, f.frees);
  MPI_Finalize();
  return 0;
}
