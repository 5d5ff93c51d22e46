// A const object with a mutable member, a statistics counter or a memo, is written through it:
// each rank has its own, at namespace scope and as a function's static, as each process of a
// real run has.
#include <mpi.h>

#include <cstdio>

struct Stencil {
  double w[3];
  mutable long applied = 0;
  double apply(const double* u) const {
    ++applied;
    return w[0] * u[0] + w[1] * u[1] + w[2] * u[2];
  }
};
const Stencil laplace{{1.0, -2.0, 1.0}};

struct Memo {
  double v[4];
  mutable int hits;
};
const Memo& memo() {
  static const Memo m{{1, 2, 3, 4}, 0};
  return m;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double u[3] = {1.0 * rank, 2.0, 3.0};
  double s = 0;
  for (int i = 0; i < 10 * (rank + 1); ++i)
    s += laplace.apply(u);
  for (int i = 0; i <= rank; ++i)
    memo().hits++;
  MPI_Barrier(MPI_COMM_WORLD);
  long total = 0;
  MPI_Allreduce(&laplace.applied, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: applied %ld of %ld, sum %g, memo hits %d\n", rank, laplace.applied, total,
              s, memo().hits);
  MPI_Finalize();
  return 0;
}
