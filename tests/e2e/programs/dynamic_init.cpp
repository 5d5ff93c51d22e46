// C++ dynamic initializers that read the program's globals, through a function: in a real run
// each process runs them; here each rank does, on its own globals.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <string>

int nx = 10;
static int scale() {
  return nx * 3;
}
const int total = scale();                         // a constant built by code
const double pi = 4 * std::atan(1.0);              // likewise, reads no global
const std::string label = "grid" + std::to_string(nx);

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  nx += rank;
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("dynamic_init: rank %d total %d nx %d pi %.5f label %s\n", rank, total, nx, pi,
              label.c_str());
  MPI_Finalize();
  return 0;
}
