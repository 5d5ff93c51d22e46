/* 128 MiB of zero-initialized globals of which each rank touches two elements, as codes with
 * large static work arrays sized for the biggest problem do. The simulator's copying of the
 * globals is not the program's time: the predicted time at the end is tiny. */
#include <mpi.h>
#include <stdio.h>

#define N (16 * 1024 * 1024)
double work[N];
static double state[N / 1024] = {0};

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  work[rank] = rank;
  work[N - 1] += 1;
  state[0] += 1;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t = MPI_Wtime();
  printf("zero_globals: rank %d work %g %g state %g predicted %s\n", rank, work[rank],
         work[N - 1], state[0], t < 5e-3 ? "under 5 ms" : "5 ms or more");
  MPI_Finalize();
  return 0;
}
