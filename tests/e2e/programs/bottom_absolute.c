/* MPI_BOTTOM with datatypes of absolute addresses (MPI_Get_address): a struct of an int and a
 * double sent and received with MPI_Send/MPI_Recv and MPI_Sendrecv, as MPICH's sendrecvt4 test
 * does. MPICH gives 0 failed checks too. */
#include <mpi.h>
#include <stdio.h>

static MPI_Datatype absolute_type(int* i, double* d) {
  int lengths[2] = {1, 1};
  MPI_Aint where[2];
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
  MPI_Get_address(i, &where[0]);
  MPI_Get_address(d, &where[1]);
  MPI_Type_create_struct(2, lengths, where, types, &t);
  MPI_Type_commit(&t);
  return t;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int si = rank, ri = -1;
  double sd = rank + 0.5, rd = -1;
  MPI_Datatype st = absolute_type(&si, &sd), rt = absolute_type(&ri, &rd);
  MPI_Sendrecv(MPI_BOTTOM, 1, st, right, 0, MPI_BOTTOM, 1, rt, left, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  errors += ri != left || rd != left + 0.5;
  ri = -1, rd = -1;
  MPI_Request req;
  MPI_Irecv(MPI_BOTTOM, 1, rt, left, 1, MPI_COMM_WORLD, &req);
  MPI_Send(MPI_BOTTOM, 1, st, right, 1, MPI_COMM_WORLD);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  errors += ri != left || rd != left + 0.5;
  MPI_Type_free(&st);
  MPI_Type_free(&rt);
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("bottom_absolute: %d ranks, %d failed checks\n", size, total);
  MPI_Finalize();
  return 0;
}
