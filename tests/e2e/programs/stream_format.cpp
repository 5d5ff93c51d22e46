// Each rank formats its own std::cout, as each process of a real run has its own: rank 0 prints
// its summary in scientific notation, rank 1 pads with '*', rank 2 prints booleans as words and
// numbers in hex, and the other ranks keep the defaults. Every rank sets its format before the
// MPI calls that let the others run, and prints after them, one rank at a time.
#include <mpi.h>

#include <cmath>
#include <iomanip>
#include <iostream>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double value = std::sqrt(2.0) * 1000.0 * (rank + 1);
  if (rank == 0) std::cout << std::scientific << std::setprecision(3);
  if (rank == 1) std::cout << std::setfill('*') << std::showpos;
  if (rank == 2) std::cout << std::boolalpha << std::hex << std::uppercase;

  double sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int turn = 0; turn < size; ++turn) {
    if (turn == rank)
      std::cout << "rank " << rank << ": value " << value << " of " << sum << ", even "
                << (rank % 2 == 0) << ", [" << std::setw(6) << rank * 7 << "]" << std::endl;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
