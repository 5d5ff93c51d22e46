/* A function-local static array whose size is #defined inside the function, after a comment,
 * as benchmark codes write their scratch buffers. */
#include <mpi.h>
#include <stdio.h>

static float exploit(int rank) {
  /* the size of the scratch array */
#define N 64
#define TWICE(x) (2 * (x))
  static float a[TWICE(N)];
  for (int i = 0; i < TWICE(N); ++i)
    a[i] += (float)(rank + i);
  return a[TWICE(N) - 1];
#undef TWICE
#undef N
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  exploit(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: %.1f\n", rank, exploit(rank));
  MPI_Finalize();
  return 0;
}
