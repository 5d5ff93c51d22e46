/* Halo exchanges on a 2-D process grid with the neighbourhood collectives, as stencil codes
 * write them: MPI_Neighbor_alltoall of one value per side on a periodic grid,
 * MPI_Neighbor_alltoallw of the ghost rows and columns of a local block (vector types, byte
 * displacements) on a non-periodic grid, MPI_Neighbor_allgather of the neighbours' ranks (sides
 * past the edge keep their slot and their old contents), the same on a duplicate of the grid,
 * and MPI_Ineighbor_alltoall overlapped with the interior update. Every rank checks what it got
 * against MPI_Cart_shift and prints it. */
#include <mpi.h>
#include <stdio.h>

#define N 4 /* interior points per side */
#define W (N + 2)

static int failed = 0;

static void check(int ok, int rank, const char* what) {
  if (!ok) {
    ++failed;
    printf("neighbor_halo: rank %d: %s is wrong\n", rank, what);
  }
}

/* The four neighbours in MPI's slot order: dimension 0 down then up, dimension 1 likewise. */
static void neighbours(MPI_Comm grid, int nb[4]) {
  MPI_Cart_shift(grid, 0, 1, &nb[0], &nb[1]);
  MPI_Cart_shift(grid, 1, 1, &nb[2], &nb[3]);
}

static double value(int rank, int i, int j) {
  return rank * 100 + i * 10 + j;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, dims[2] = {0, 0}, periodic[2] = {1, 1}, open[2] = {0, 0}, nb[4];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm torus, box, box2;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periodic, 1, &torus);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, open, 0, &box);

  /* One value per side on the torus: what neighbour k sent towards me. */
  int me, out[4], in[4];
  MPI_Comm_rank(torus, &me);
  neighbours(torus, nb);
  for (int k = 0; k < 4; ++k)
    out[k] = me * 10 + k;
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, torus);
  /* Slot 2d got what the down neighbour sent up (its slot 2d+1), and so on. */
  for (int k = 0; k < 4; ++k)
    check(in[k] == nb[k] * 10 + (k ^ 1), me, "torus alltoall");
  printf("neighbor_halo: torus rank %d got %d %d %d %d\n", me, in[0], in[1], in[2], in[3]);

  /* Ghost exchange of a local block on the open grid. */
  double u[W][W];
  MPI_Comm_rank(box, &me);
  neighbours(box, nb);
  for (int i = 0; i < W; ++i)
    for (int j = 0; j < W; ++j)
      u[i][j] = (i == 0 || j == 0 || i == W - 1 || j == W - 1) ? -1 : value(me, i, j);
  MPI_Datatype row, column;
  MPI_Type_contiguous(N, MPI_DOUBLE, &row);
  MPI_Type_vector(N, 1, W, MPI_DOUBLE, &column);
  MPI_Type_commit(&row);
  MPI_Type_commit(&column);
  const MPI_Aint d = sizeof(double);
  int counts[4] = {1, 1, 1, 1};
  MPI_Datatype types[4] = {row, row, column, column};
  MPI_Aint sdispls[4] = {(1 * W + 1) * d, (N * W + 1) * d, (1 * W + 1) * d, (1 * W + N) * d};
  MPI_Aint rdispls[4] = {(0 * W + 1) * d, ((N + 1) * W + 1) * d, (1 * W + 0) * d,
                         (1 * W + N + 1) * d};
  MPI_Neighbor_alltoallw(u, counts, sdispls, types, u, counts, rdispls, types, box);
  double sums[4] = {0, 0, 0, 0};
  for (int t = 0; t < N; ++t) {
    sums[0] += u[0][t + 1];
    sums[1] += u[N + 1][t + 1];
    sums[2] += u[t + 1][0];
    sums[3] += u[t + 1][N + 1];
  }
  for (int t = 0; t < N; ++t) {
    check(u[0][t + 1] == (nb[0] < 0 ? -1 : value(nb[0], N, t + 1)), me, "north ghost row");
    check(u[N + 1][t + 1] == (nb[1] < 0 ? -1 : value(nb[1], 1, t + 1)), me, "south ghost row");
    check(u[t + 1][0] == (nb[2] < 0 ? -1 : value(nb[2], t + 1, N)), me, "west ghost column");
    check(u[t + 1][N + 1] == (nb[3] < 0 ? -1 : value(nb[3], t + 1, 1)), me, "east ghost column");
  }
  printf("neighbor_halo: box rank %d ghost sums %.0f %.0f %.0f %.0f\n", me, sums[0], sums[1],
         sums[2], sums[3]);

  /* The neighbours' ranks; sides past the edge keep -7. The duplicate has the same topology. */
  int who[4] = {-7, -7, -7, -7}, topo;
  MPI_Comm_dup(box, &box2);
  MPI_Topo_test(box2, &topo);
  check(topo == MPI_CART, me, "the duplicate's topology");
  MPI_Neighbor_allgather(&me, 1, MPI_INT, who, 1, MPI_INT, box2);
  for (int k = 0; k < 4; ++k)
    check(who[k] == (nb[k] < 0 ? -7 : nb[k]), me, "allgather of ranks");
  printf("neighbor_halo: box rank %d neighbours %d %d %d %d\n", me, who[0], who[1], who[2], who[3]);

  /* Non-blocking: the interior is updated while the edge values travel. */
  MPI_Request q;
  MPI_Comm_rank(torus, &me);
  neighbours(torus, nb);
  for (int k = 0; k < 4; ++k)
    out[k] = 1000 + me * 10 + k;
  MPI_Ineighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, torus, &q);
  double interior = 0;
  for (int sweep = 0; sweep < 100; ++sweep)
    for (int i = 1; i <= N; ++i)
      for (int j = 1; j <= N; ++j)
        interior += 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) * 1e-3;
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  for (int k = 0; k < 4; ++k)
    check(in[k] == 1000 + nb[k] * 10 + (k ^ 1), me, "torus ialltoall");
  printf("neighbor_halo: torus rank %d overlapped got %d %d %d %d\n", me, in[0], in[1], in[2],
         in[3]);

  int all_failed;
  MPI_Reduce(&failed, &all_failed, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("neighbor_halo: %d ranks on a %dx%d grid, %d failed checks (interior %s)\n", size,
           dims[0], dims[1], all_failed, interior != 0 ? "updated" : "untouched");
  MPI_Type_free(&row);
  MPI_Type_free(&column);
  MPI_Comm_free(&box2);
  MPI_Comm_free(&box);
  MPI_Comm_free(&torus);
  MPI_Finalize();
  return 0;
}
