// Globals named in OpenMP clauses, in C++ (docs/privatization.md, OpenMP): a namespace-scope
// variable in a reduction, a constant built by code in firstprivate, a struct in lastprivate, a
// function-local static in a reduction, shared(...) and default(none); every result depends on
// the rank.
#include <mpi.h>

#include <cmath>
#include <cstdio>

namespace stats {
double total; // reduction: starts at the rank's own value
long hits;    // shared, written atomically by the team
} // namespace stats

struct Point {
  int x, y;
};
Point corner{-1, -1};                               // lastprivate
const int unit = static_cast<int>(std::sqrt(16.0)); // built by code: per rank too
int scale = 1;                                      // read under default(none)

int calls_so_far(int rank) {
  static int calls = 0; // a C++ function-local static keeps its name
#pragma omp parallel for reduction(+ : calls)
  for (int i = 0; i <= rank; ++i)
    calls += 1;
  return calls;
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  stats::total = rank;
  scale = rank + 1;

#pragma omp parallel for reduction(+ : stats::total) firstprivate(unit) lastprivate(corner)
  for (int i = 0; i < 1000; ++i) {
    stats::total += 0.5 * i + unit;
    corner = Point{i + rank, unit * rank};
  }

#pragma omp parallel default(none) shared(stats::hits, scale)
  {
#pragma omp atomic
    stats::hits += scale;
  }

  calls_so_far(rank);
  std::printf("rank %d: total %.1f, corner %d %d, hits %ld, calls %d\n", rank, stats::total,
              corner.x, corner.y, stats::hits, calls_so_far(rank));
  MPI_Finalize();
  return 0;
}
