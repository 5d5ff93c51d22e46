/* Rank 0 sends through an object compiled against another MPI. */
#include <mpi.h>

void send_one(int to);

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, got = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) send_one(1);
  if (rank == 1) MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return got == 1 || rank != 1 ? 0 : 1;
}
