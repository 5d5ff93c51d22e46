/* MPI_Dims_create over every grid size a code is likely to ask for, free and partly fixed: the
 * decomposition decides each rank's neighbours and message sizes, so a prediction of a code that
 * asks for its grid is MPICH's only if the grid is MPICH's, ties between equally balanced grids
 * included. Rank 0 prints one line per call. */
#include <mpi.h>
#include <stdio.h>

static void show(const char* what, int n, int nd, int* d) {
  MPI_Dims_create(n, nd, d);
  printf("%s %d %d:", what, nd, n);
  for (int i = 0; i < nd; ++i)
    printf(" %d", d[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    for (int nd = 2; nd <= 5; ++nd)
      for (int n = 1; n <= 2048; ++n) {
        int d[5] = {0, 0, 0, 0, 0};
        show("free", n, nd, d);
      }
    for (int n = 2; n <= 1024; n += 2) {
      int d[4] = {0, 2, 0, 0};
      show("fixed", n, 4, d);
    }
    const int big[] = {65536, 100000, 131072, 262144, 1000000, 1048576, 27000, 46656, 720720};
    for (int i = 0; i < 9; ++i)
      for (int nd = 2; nd <= 4; ++nd) {
        int d[4] = {0, 0, 0, 0};
        show("large", big[i], nd, d);
      }
  }
  MPI_Finalize();
  return 0;
}
