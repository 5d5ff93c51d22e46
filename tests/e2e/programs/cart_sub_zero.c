/* Zero-dimensional Cartesian communicators, as MPICH makes them: MPI_Cart_create with ndims 0
 * gives rank 0 a communicator of size 1 (the others MPI_COMM_NULL), and MPI_Cart_sub keeping no
 * dimension of a 2-D grid gives rank 0 of the grid a 0-dimensional one of size 1, the others
 * MPI_COMM_NULL. */
#include <mpi.h>
#include <stdio.h>

static void describe(const char* what, int rank, MPI_Comm c) {
  if (c == MPI_COMM_NULL) {
    printf("cart_sub_zero: rank %d: %s MPI_COMM_NULL\n", rank, what);
    return;
  }
  int size, ndims, topo;
  MPI_Comm_size(c, &size);
  MPI_Topo_test(c, &topo);
  MPI_Cartdim_get(c, &ndims);
  printf("cart_sub_zero: rank %d: %s size %d, %s, %d dimensions\n", rank, what, size,
         topo == MPI_CART ? "Cartesian" : "not Cartesian", ndims);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, dims[2] = {0, 0}, periods[2] = {0, 0}, remain[2] = {0, 0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm cart0, sub0, grid, sub;
  MPI_Cart_create(MPI_COMM_WORLD, 0, dims, periods, 0, &cart0);
  describe("ndims 0:", rank, cart0);
  if (cart0 != MPI_COMM_NULL) {
    MPI_Cart_sub(cart0, remain, &sub0);
    describe("its sub:", rank, sub0);
    if (sub0 != MPI_COMM_NULL) MPI_Comm_free(&sub0);
    MPI_Comm_free(&cart0);
  }
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_sub(grid, remain, &sub);
  describe("sub of 2-D:", rank, sub);
  if (sub != MPI_COMM_NULL) MPI_Comm_free(&sub);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
