/* A program built with a shim stdio.h (one that includes the real one with #include_next) and a
 * helper header with macros and a static counter, both found through -I. The rewritten copy of
 * the shim must reach the C library's stdio.h, not the shim's original (whose include guard is
 * already defined), and each rank counts its own checks: rank r makes r + 2. */
#include <mpi.h>
#include <stdio.h>

#include <checks/checks.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* all = new_zeroed(int, size);
  check(all != NULL, "rank %d: no memory\n", rank);
  for (int k = 0; k < rank; ++k)
    check(k < size, "rank %d: bad loop\n", rank);
  MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
  int sum = 0;
  for (int k = 0; k < size; ++k)
    sum += all[k];
  check(sum == size * (size - 1) / 2, "rank %d: sum %d\n", rank, sum);
  printf("rank %d: sum %d, %d checks, shim %d\n", rank, sum, checks_made, SHIM_STDIO);
  free(all);
  MPI_Finalize();
  return 0;
}
