/* MPI-4.0's non-blocking MPI_Isendrecv and MPI_Isendrecv_replace around a ring (contents, status
 * and count checked; computation overlaps them), and MPI_Comm_idup_with_info. Prints the number
 * of failed checks over all ranks. MPICH 4.0.2 delivers the same data to MPI_Isendrecv but fills
 * its status wrongly (source 0, count 0: fixed in MPICH 4.1), and its MPI_Isendrecv_replace of a
 * derived datatype corrupts the data and the type's reference count; the checks here follow the
 * standard. */
#include <mpi.h>
#include <stdio.h>

enum { N = 1000 };

static int errors;

static void check(int ok, const char* what, int rank) {
  if (!ok && errors++ == 0) printf("rank %d: %s is wrong (first failed check)\n", rank, what);
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  static int out[N], in[N], buf[2 * N];
  for (int i = 0; i < N; ++i)
    out[i] = rank * 100000 + i, in[i] = -1;
  MPI_Request req;
  MPI_Status st;
  MPI_Isendrecv(out, N, MPI_INT, right, 7, in, N, MPI_INT, left, 7, MPI_COMM_WORLD, &req);
  long local = 0;
  for (int i = 0; i < N; ++i)
    local += out[i]; /* work while the exchange is in flight */
  MPI_Wait(&req, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  check(st.MPI_SOURCE == left && st.MPI_TAG == 7 && count == N, "Isendrecv status", rank);
  for (int i = 0; i < N; ++i)
    check(in[i] == left * 100000 + i, "Isendrecv data", rank);
  check(req == MPI_REQUEST_NULL, "Isendrecv request after wait", rank);

  /* Every second int of buf, replaced by the left neighbour's; the others untouched. */
  MPI_Datatype every_second;
  MPI_Type_vector(N, 1, 2, MPI_INT, &every_second);
  MPI_Type_commit(&every_second);
  for (int i = 0; i < 2 * N; ++i)
    buf[i] = rank * 100000 + i;
  MPI_Isendrecv_replace(buf, 1, every_second, right, 9, left, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
  int done = 0;
  while (!done)
    MPI_Test(&req, &done, &st);
  check(st.MPI_SOURCE == left && st.MPI_TAG == 9, "Isendrecv_replace status", rank);
  for (int i = 0; i < 2 * N; ++i)
    check(buf[i] == (i % 2 ? rank : left) * 100000 + i, "Isendrecv_replace data", rank);
  MPI_Type_free(&every_second);

  /* MPI_PROC_NULL on both sides completes with an empty receive. */
  MPI_Isendrecv(out, N, MPI_INT, MPI_PROC_NULL, 0, in, N, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                &req);
  MPI_Wait(&req, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  check(st.MPI_SOURCE == MPI_PROC_NULL && count == 0, "Isendrecv with MPI_PROC_NULL", rank);

  MPI_Comm dup;
  MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  int cmp = -1, sum = 0;
  MPI_Comm_compare(MPI_COMM_WORLD, dup, &cmp);
  check(cmp == MPI_CONGRUENT, "Comm_idup_with_info result", rank);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
  check(sum == size * (size - 1) / 2, "Allreduce on the new communicator", rank);
  MPI_Comm_free(&dup);

  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("isendrecv: %d ranks, %d failed checks (sum %ld)\n", size, total, local);
  MPI_Finalize();
  return 0;
}
