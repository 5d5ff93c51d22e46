/* MPI_LXOR, MPI_LAND and MPI_LOR on MPI_FLOAT and MPI_DOUBLE (MPI allows integer and logical
 * types only): MPICH 4.0.2 accepts MPI_LXOR and gives 1 or 0 of the type (its MPI_LAND and MPI_LOR
 * stop at an internal assertion); mpisim accepts all three alike. Ranks hold 1.5 when odd, 0 when
 * even. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const MPI_Op ops[] = {MPI_LXOR, MPI_LAND, MPI_LOR};
  const char* names[] = {"lxor", "land", "lor"};
  for (int k = 0; k < 3; ++k) {
    float f = rank % 2 ? 1.5f : 0.0f, fr = -1;
    double d = rank % 2 ? 1.5 : 0.0, dr = -1;
    MPI_Allreduce(&f, &fr, 1, MPI_FLOAT, ops[k], MPI_COMM_WORLD);
    MPI_Allreduce(&d, &dr, 1, MPI_DOUBLE, ops[k], MPI_COMM_WORLD);
    if (rank == 0)
      printf("logical_float: %d ranks %s float %g double %g\n", size, names[k], fr, dr);
  }
  MPI_Finalize();
  return 0;
}
