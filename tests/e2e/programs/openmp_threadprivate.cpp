// C++ per-thread state in a hybrid code: a threadprivate counter, a thread_local history
// (std::vector) and a thread_local object whose constructor reads a global, written by each
// thread of each rank's team across regions interleaved by MPI calls. In a real run each rank is
// a process: every rank and every thread has its own copies, built once per thread.
#include <mpi.h>
#include <omp.h>

#include <cstdio>
#include <string>
#include <vector>

int base_tag = 10;
int hits;
#pragma omp threadprivate(hits)
thread_local std::vector<int> history;

struct Logger {
  Logger() : tag("tag-" + std::to_string(base_tag)) {}
  std::string tag;
};
thread_local Logger logger;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int step = 0; step < 3; ++step) {
#pragma omp parallel num_threads(2)
    {
      const int t = omp_get_thread_num();
      for (int i = 0; i <= rank + t; ++i) {
        ++hits;
        history.push_back(100 * rank + 10 * t + step);
      }
      logger.tag += "+" + std::to_string(step * 2 + t);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::string lines[2];
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    int sum = 0;
    for (int h : history)
      sum += h;
    lines[t] = "thread " + std::to_string(t) + ": " + std::to_string(hits) + " hits, " +
               std::to_string(history.size()) + " in history summing " + std::to_string(sum) +
               ", " + logger.tag;
  }
  std::printf("rank %d %s; %s\n", rank, lines[0].c_str(), lines[1].c_str());
  MPI_Finalize();
  return 0;
}
