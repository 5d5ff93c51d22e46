/* Every rank counts once with the helper library's counter; the largest count tells whether
   the ranks share it (the number of ranks) or each has its own (1). */
#include <mpi.h>
#include <stdio.h>

int helper_next(void);

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, mine, largest;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mine = helper_next();
  MPI_Reduce(&mine, &largest, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("uses_helper: largest count %d\n", largest);
  MPI_Finalize();
  return 0;
}
