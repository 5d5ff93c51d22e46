/* Globals whose declared type names another global (an array bound from its size, __typeof__),
 * with initializers: the rewrite broke the build. Each rank its own copies.
 * usage: size_from_global */
#include <mpi.h>
#include <stdio.h>

double weights[3] = {0.25, 0.5, 0.25};
double scratch[sizeof weights / sizeof weights[0]] = {1.0};
__typeof__(weights) copy = {1.0, 2.0, 3.0};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scratch[2] += rank;
  copy[1] *= rank;
  printf("rank %d: scratch %g %g %g, copy %g %g %g, %zu elements\n", rank, scratch[0], scratch[1],
         scratch[2], copy[0], copy[1], copy[2], sizeof scratch / sizeof scratch[0]);
  MPI_Finalize();
  return 0;
}
