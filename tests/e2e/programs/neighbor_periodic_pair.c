/* Neighbourhood collectives on a periodic Cartesian grid whose dimensions have 2 ranks, where a
 * rank's lower and upper neighbours are one rank (a halo exchange on a small periodic domain).
 * Each rank sends rank * 10 + slot in each slot of MPI_Neighbor_alltoall, and the same through
 * MPI_Ineighbor_alltoall; it prints what arrived in each slot, which MPI defines as what each
 * neighbour sent in the opposite direction. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int rank;
  MPI_Comm_rank(grid, &rank);
  int out[4], in[4], in2[4];
  for (int s = 0; s < 4; ++s)
    out[s] = rank * 10 + s;
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, grid);
  MPI_Request q;
  MPI_Ineighbor_alltoall(out, 1, MPI_INT, in2, 1, MPI_INT, grid, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  int lo, hi;
  MPI_Cart_shift(grid, 0, 1, &lo, &hi);
  printf("rank %d (grid %dx%d, neighbours %d and %d): received %d %d %d %d, again %d %d %d %d\n",
         rank, dims[0], dims[1], lo, hi, in[0], in[1], in[2], in[3], in2[0], in2[1], in2[2],
         in2[3]);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
