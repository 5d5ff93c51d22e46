// A C++ program: std::vector, exceptions and a main without parameters.
#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <vector>

int main() {
  MPI_Init(nullptr, nullptr);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<long> mine(4, rank), sum(4);
  MPI_Allreduce(mine.data(), sum.data(), 4, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  try {
    if (sum[3] != static_cast<long>(size) * (size - 1) / 2) throw std::runtime_error("bad sum");
  } catch (const std::exception& e) {
    std::printf("rank %d: %s\n", rank, e.what());
    return 1;
  }
  if (rank == 0) std::printf("cxx_hello: sum %ld over %d ranks\n", sum[3], size);
  MPI_Finalize();
  return 0;
}
