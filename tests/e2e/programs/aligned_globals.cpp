// C++ alignas on globals, static members and namespace-scope objects with constructors:
// each rank's copy keeps the declared alignment.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <vector>

alignas(64) double grid[32];
namespace solver {
alignas(128) std::vector<double> work(8, 1.0); // constructed per rank
struct alignas(256) Block {
  double v[4];
};
Block blocks[2];
} // namespace solver
struct Table {
  alignas(64) static double coeff[8];
};
alignas(64) double Table::coeff[8] = {1, 2};

static int check(const void* p, std::uintptr_t align, const char* name, int rank) {
  if (reinterpret_cast<std::uintptr_t>(p) % align == 0) return 0;
  std::printf("aligned_globals_cxx: rank %d: %s is not %lu-byte aligned\n", rank, name,
              static_cast<unsigned long>(align));
  return 1;
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  grid[0] = rank;
  const int bad = check(grid, 64, "grid", rank) + check(&solver::work, 128, "work", rank) +
                  check(solver::blocks, 256, "blocks", rank) +
                  check(Table::coeff, 64, "coeff", rank);
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("aligned_globals_cxx: rank %d misaligned %d grid %g work %zu\n", rank, bad, grid[0],
              solver::work.size());
  MPI_Finalize();
  return 0;
}
