/* allreduce_bench: the smallest program that touches every rank, built with mpisimcc like a
 * user's program, to measure the simulator's memory and time per rank at scale.
 *
 * usage: allreduce_bench [count] [repetitions]
 * `repetitions` (default 1) MPI_Allreduce calls of `count` ints (default 1), then a barrier.
 * Above 2 KiB of data an Allreduce takes Rabenseifner's algorithm (docs/model.md), whose
 * blocks are what each rank works on. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = argc > 1 ? atoi(argv[1]) : 1;
  const int repetitions = argc > 2 ? atoi(argv[2]) : 1;
  if (count < 1 || repetitions < 1) {
    if (rank == 0) fprintf(stderr, "usage: allreduce_bench [count >= 1] [repetitions >= 1]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int* ones = malloc((size_t)count * sizeof *ones);
  int* sums = malloc((size_t)count * sizeof *sums);
  for (int i = 0; i < count; ++i)
    ones[i] = 1;
  for (int r = 0; r < repetitions; ++r)
    MPI_Allreduce(ones, sums, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  int status = 0;
  for (int i = 0; i < count && status == 0; ++i)
    if (sums[i] != size) {
      fprintf(stderr, "rank %d: allreduce gave %d at %d, expected %d\n", rank, sums[i], i, size);
      status = 1;
    }
  if (rank == 0) printf("allreduce sum %d over %d ranks\n", sums[0], size);
  free(ones);
  free(sums);
  MPI_Finalize();
  return status;
}
