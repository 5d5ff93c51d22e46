/* comm_split: MPI_Comm_split of MPI_COMM_WORLD into its even and odd ranks, and nothing else but
 * a check of each rank's place in its half, to measure what a split costs the simulator at scale
 * (benchmarks/run-scale, docs/performance.md). Prints "split verified" when every rank is where
 * it should be. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, half_rank = -1, half_size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_rank(half, &half_rank);
  MPI_Comm_size(half, &half_size);
  const int ok = half_rank == rank / 2 && half_size == (size + 1 - rank % 2) / 2;
  int all_ok = 0;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0) printf(all_ok ? "split verified\n" : "split WRONG\n");
  MPI_Comm_free(&half);
  MPI_Finalize();
  return all_ok || rank != 0 ? 0 : 1;
}
