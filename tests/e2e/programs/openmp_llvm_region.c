/* A helper library built with clang -fopenmp (LLVM's runtime, libomp) in a program built with
 * mpisimcc: its parallel region would run on threads whose work mpisim does not see, so the run
 * must refuse it by name. The test compiles the library part (LLVM_PART) with clang. */
#ifdef LLVM_PART
double llvm_sum(int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += i;
  return s;
}
#else
#include <mpi.h>
#include <stdio.h>

double llvm_sum(int n);

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  printf("sum %g\n", llvm_sum(1000));
  MPI_Finalize();
  return 0;
}
#endif
