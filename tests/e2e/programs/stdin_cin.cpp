// Rank 1 reads a line of std::cin, which under mpiexec waits
// forever: mpisim ends the run naming the C library's call libstdc++ made.
#include <mpi.h>

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    std::string line;
    std::getline(std::cin, line);
    std::cout << "stdin_cin: rank 1 read " << line << "\n";
  }
  MPI_Finalize();
  return 0;
}
