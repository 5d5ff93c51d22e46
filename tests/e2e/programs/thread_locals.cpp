// C++ thread_local state of a helper library: a per-thread cache built at first use and a
// counter, as thread-safe libraries keep them; natively each process has its own.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

namespace helper {
thread_local int hits = 0;
thread_local std::vector<int> history;
thread_local std::string tag = std::string("tag-") + std::to_string(history.size());

void record(int v) {
  ++hits;
  history.push_back(v);
  tag += "+" + std::to_string(v);
}
} // namespace helper

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i <= rank; ++i) {
    helper::record(rank * 10 + i);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  for (int i = rank + 1; i < 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d: %d hits, %zu in history, %s\n", rank, helper::hits, helper::history.size(),
              helper::tag.c_str());
  MPI_Finalize();
  return 0;
}
