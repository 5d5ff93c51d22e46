/* A user's reduction function that calls MPI, as generic ones do: MPI_Type_size to know how many
 * ints an element holds, MPI_Comm_rank for a per-rank tally. Each call is its own rank's, though
 * another rank's fiber or the scheduler may deliver the message it reduces; blocking and
 * non-blocking collectives alike. */
#include <mpi.h>
#include <stdio.h>

static int me = -1, calls = 0, foreign = 0;

static void sum_pairs(void* in, void* inout, int* len, MPI_Datatype* type) {
  int bytes, rank;
  MPI_Type_size(*type, &bytes);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ++calls;
  if (rank != me) ++foreign;
  const int n = *len * bytes / (int)sizeof(int);
  for (int i = 0; i < n; i++)
    ((int*)inout)[i] += ((int*)in)[i];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Op op;
  MPI_Op_create(sum_pairs, 1, &op);
  int in[4] = {me, 1, 10 * me, 2}, all[4], root[4] = {0, 0, 0, 0}, later[4];
  MPI_Allreduce(in, all, 2, pair, op, MPI_COMM_WORLD);
  MPI_Reduce(in, root, 2, pair, op, 0, MPI_COMM_WORLD);
  MPI_Request q;
  MPI_Iallreduce(in, later, 2, pair, op, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  printf("rank %d: allreduce %d %d %d %d, reduce %d %d, iallreduce %d %d %d %d, %s\n", me, all[0],
         all[1], all[2], all[3], root[0], root[3], later[0], later[1], later[2], later[3],
         calls > 0 && foreign == 0 ? "every call its own" : "calls of another rank");
  MPI_Op_free(&op);
  MPI_Type_free(&pair);
  MPI_Finalize();
  return 0;
}
