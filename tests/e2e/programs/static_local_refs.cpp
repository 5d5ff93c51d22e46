// Function-local statics whose initializers name other statics of the same function: a copy,
// a pointer, and a stream built from a string stream (a finite-element code opens its log so).
#include <mpi.h>

#include <cstdio>
#include <sstream>
#include <string>

int next_step(int rank) {
  static int first = 3 + rank;
  static int copy = first;
  static int* cursor = &first;
  static std::ostringstream name;
  if (name.str().empty()) name << "step-log-" << rank;
  static std::string label(name.str().c_str());
  return ++copy + (*cursor)++ + static_cast<int>(label.size());
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int step = 0;
  for (int i = 0; i <= rank; ++i) {
    step = next_step(rank);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  for (int i = rank + 1; i < 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d: step %d\n", rank, step);
  MPI_Finalize();
  return 0;
}
