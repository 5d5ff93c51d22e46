// C++ file-scope array compound literals (a GNU extension GCC and Clang accept): each rank has
// its own arrays, also in a namespace and when they hold addresses of other globals.
#include <mpi.h>

#include <cstdio>

namespace cfg {
int level = 1;
int* counts = (int[]){0, 0};
int** levels = (int*[]){&level, (int[]){40, 50}};
} // namespace cfg

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  cfg::counts[0] += r + 1;
  *cfg::levels[0] += r;
  cfg::levels[1][1] += 10 * r;
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d: counts %d %d, level %d, levels %d %d\n", r, cfg::counts[0], cfg::counts[1],
              cfg::level, cfg::levels[1][0], cfg::levels[1][1]);
  MPI_Finalize();
}
