/* Persistent sends and receives of derived datatypes: every second int of a buffer (a vector
 * type), sent with MPI_Send_init / MPI_Start five times around a ring; the types are freed after
 * the requests are made, as MPI allows. Each round's data is checked; MPICH gives 0 too. */
#include <mpi.h>
#include <stdio.h>

enum { N = 500, ROUNDS = 5 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  static int out[2 * N], in[2 * N];
  MPI_Datatype every_second, pair;
  MPI_Type_vector(N, 1, 2, MPI_INT, &every_second);
  MPI_Type_commit(&every_second);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Request reqs[2];
  MPI_Send_init(out, 1, every_second, right, 3, MPI_COMM_WORLD, &reqs[0]);
  MPI_Recv_init(in, N / 2, pair, left, 3, MPI_COMM_WORLD, &reqs[1]);
  MPI_Type_free(&every_second);
  MPI_Type_free(&pair);
  for (int round = 0; round < ROUNDS; ++round) {
    for (int i = 0; i < 2 * N; ++i)
      out[i] = rank * 100000 + round * 1000 + i, in[i] = -1;
    MPI_Startall(2, reqs);
    MPI_Status st[2];
    MPI_Waitall(2, reqs, st);
    int count = -1;
    MPI_Get_count(&st[1], MPI_INT, &count);
    errors += count != N;
    for (int i = 0; i < N; ++i)
      errors += in[i] != left * 100000 + round * 1000 + 2 * i;
    for (int i = N; i < 2 * N; ++i)
      errors += in[i] != -1;
  }
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("persistent_derived: %d ranks, %d failed checks\n", size, total);
  MPI_Finalize();
  return 0;
}
