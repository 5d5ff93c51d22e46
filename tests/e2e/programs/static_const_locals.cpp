// Function-local constants in the style of C++ codes: a name built at run time from the rank
// (the Meyers-singleton pattern, per rank in a real run since each process builds its own), a
// lookup table built by code, and plain constants that the ranks may share.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

const std::string& log_name() {
  static const std::string name = "solver-rank" + std::to_string(world_rank()) + ".log";
  return name;
}

double weight(int i) {
  static const int kTerms = 8;
  static const double kScale[] = {0.5, 0.25};
  static const std::vector<double> table = [] {
    std::vector<double> t(kTerms);
    for (int j = 0; j < kTerms; ++j)
      t[static_cast<std::size_t>(j)] = std::pow(2.0, world_rank() - j);
    return t;
  }();
  return table[static_cast<std::size_t>(i % kTerms)] * kScale[i % 2];
}

} // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = world_rank();
  double local = 0;
  for (int i = 0; i < 10; ++i)
    local += weight(i);
  MPI_Barrier(MPI_COMM_WORLD);
  double total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: log %s, weights %.6f of %.6f\n", rank, log_name().c_str(), local, total);
  MPI_Finalize();
  return 0;
}
