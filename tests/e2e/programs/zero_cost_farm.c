/* A master/worker farm whose workers answer in zero simulated time (run with CPU time off): the
 * master takes results from MPI_ANY_SOURCE, so many messages tie in recv timestamp and the
 * tie-break (timestamp, source, sequence) decides which one it takes, as in EP's farm variant.
 * Every rank prints a digest of what it received, in order.
 *
 * usage: zero_cost_farm [tasks per worker] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long mix(unsigned long long digest, unsigned long long v) {
  return digest ^ (v + 0x9e3779b97f4a7c15ULL + (digest << 6) + (digest >> 2));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int tasks = (argc > 1 ? atoi(argv[1]) : 40) * (size - 1);
  unsigned long long digest = 0;
  if (rank == 0) {
    int next = 0, active = 0;
    for (int w = 1; w < size; ++w, ++next, ++active)
      MPI_Send(&next, 1, MPI_INT, w, 1, MPI_COMM_WORLD);
    while (active > 0) {
      int result;
      MPI_Status st;
      MPI_Recv(&result, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
      digest = mix(mix(digest, (unsigned long long)st.MPI_SOURCE), (unsigned long long)result);
      const int task = next < tasks ? next++ : -1;
      if (task < 0) --active;
      MPI_Send(&task, 1, MPI_INT, st.MPI_SOURCE, 1, MPI_COMM_WORLD);
    }
  } else {
    for (;;) {
      int task;
      MPI_Recv(&task, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (task < 0) break;
      digest = mix(digest, (unsigned long long)task);
      const int result = task * 7 + rank;
      MPI_Send(&result, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
  }
  printf("rank %d: digest %016llx time %.12f\n", rank, digest, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
