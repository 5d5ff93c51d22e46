// A function's static reached first by every thread of a rank's OpenMP team at once is built
// once per rank, the others waiting for it, as C++ requires of every static.
#include <mpi.h>
#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <vector>

std::atomic<int> builds{0};

static std::vector<double> build() {
  builds++;
  usleep(20000); // long enough for the team's other threads to reach the declaration
  std::vector<double> v(64);
  for (int i = 0; i < 64; ++i)
    v[i] = i;
  return v;
}

double coefficient(int i) {
  static const std::vector<double> table = build();
  return table[i];
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double s = 0;
  for (int rep = 0; rep < 3; ++rep) {
#pragma omp parallel num_threads(4) reduction(+ : s)
    s += coefficient(omp_get_thread_num() * 10 + rank);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int mine = builds.load(), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: sum %g, table built %d time(s), %d in all\n", rank, s, mine, all);
  MPI_Finalize();
  return 0;
}
