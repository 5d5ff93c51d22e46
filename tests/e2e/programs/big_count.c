/* The MPI-4.0 large-count (_c) forms as a code that moved to MPI_Count uses them: a ring with
 * MPI_Sendrecv_c, MPI_Isend_c/MPI_Irecv_c and MPI_Send_c/MPI_Recv_c, MPI_Get_count_c on what
 * came, and the collectives' _c forms; and MPI-4.0's MPI_Info_get_string. Each rank prints what
 * it holds. With the argument "huge"
 * rank 0 sends 2^31 elements: mpisim refuses that count by name (MPICH would try to send 8 GiB). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  if (argc > 1 && strcmp(argv[1], "huge") == 0 && rank == 0) {
    static int word;
    MPI_Send_c(&word, (MPI_Count)1 << 31, MPI_INT, right, 0, MPI_COMM_WORLD);
  }

  enum { N = 5 };
  int out[N], in[N] = {0}, in2[N] = {0}, in3[N] = {0};
  for (int i = 0; i < N; ++i)
    out[i] = rank * 10 + i;
  MPI_Status st;
  MPI_Sendrecv_c(out, N, MPI_INT, right, 1, in, N, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
  MPI_Count got = 0;
  MPI_Get_count_c(&st, MPI_INT, &got);

  MPI_Request rq[2];
  MPI_Irecv_c(in2, N, MPI_INT, right, 2, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend_c(out, 3, MPI_INT, left, 2, MPI_COMM_WORLD, &rq[1]);
  MPI_Wait(&rq[0], &st);
  MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
  MPI_Count got2 = 0;
  MPI_Get_count_c(&st, MPI_INT, &got2);

  if (rank % 2 == 0) {
    MPI_Send_c(out, N, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Recv_c(in3, N, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv_c(in3, N, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send_c(out, N, MPI_INT, right, 3, MPI_COMM_WORLD);
  }

  long b[2] = {0, 0};
  if (rank == 0) {
    b[0] = 42;
    b[1] = 43;
  }
  MPI_Bcast_c(b, 2, MPI_LONG, 0, MPI_COMM_WORLD);
  double v[2] = {rank, 1.0}, sum[2] = {0, 0}, all[2] = {0, 0};
  MPI_Reduce_c(v, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce_c(v, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int ranks[64], squares[64], from_each[64], piece = -1;
  MPI_Allgather_c(&rank, 1, MPI_INT, ranks, 1, MPI_INT, MPI_COMM_WORLD);
  int to_each[64];
  for (int i = 0; i < size; ++i)
    to_each[i] = rank * 100 + i;
  MPI_Alltoall_c(to_each, 1, MPI_INT, from_each, 1, MPI_INT, MPI_COMM_WORLD);
  const int sq = rank * rank;
  MPI_Gather_c(&sq, 1, MPI_INT, squares, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
  MPI_Scatter_c(ranks, 1, MPI_INT, &piece, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Count dsize = 0;
  MPI_Type_size_c(MPI_DOUBLE, &dsize);

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "striping_factor", "16");
  char value[4], none[1];
  int buflen = 0, found = 0, buflen2 = sizeof value;
  MPI_Info_get_string(info, "striping_factor", &buflen, none, &found);   /* the length only */
  MPI_Info_get_string(info, "striping_factor", &buflen2, value, &found); /* cut to 3 chars */
  MPI_Info_free(&info);

  long alltoall_sum = 0, allgather_sum = 0;
  for (int i = 0; i < size; ++i) {
    alltoall_sum += from_each[i];
    allgather_sum += ranks[i];
  }
  printf("rank %d: sendrecv %d..%d count %lld, isend %d %d %d count %lld, send %d, bcast %ld %ld, "
         "max %.0f %.0f, allgather %ld, alltoall %ld, scatter %d, double %lld, info %d %d %s %d\n",
         rank, in[0], in[N - 1], (long long)got, in2[0], in2[1], in2[2], (long long)got2, in3[4],
         b[0], b[1], all[0], all[1], allgather_sum, alltoall_sum, piece, (long long)dsize, found,
         buflen, value, buflen2);
  if (rank == 0) printf("reduce: %.0f %.0f\n", sum[0], sum[1]);
  /* A status of 10^9 ints is 4e9 bytes: more than an int can count, MPI_UNDEFINED there. */
  MPI_Status big;
  MPI_Status_set_elements_x(&big, MPI_INT, 1000000000);
  int bytes_int = 0;
  MPI_Count bytes_c = 0;
  MPI_Get_count(&big, MPI_BYTE, &bytes_int);
  MPI_Get_count_c(&big, MPI_BYTE, &bytes_c);
  if (rank == 0)
    printf("count of 1e9 ints in bytes: %s, %lld with MPI_Get_count_c\n",
           bytes_int == MPI_UNDEFINED ? "MPI_UNDEFINED" : "a number", (long long)bytes_c);
  if (rank == size - 1) {
    long s = 0;
    for (int i = 0; i < size; ++i)
      s += squares[i];
    printf("gather: sum of squares %ld\n", s);
  }
  MPI_Finalize();
  return 0;
}
