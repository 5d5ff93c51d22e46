/* The simulated cost of a persistent collective: a broadcast started 20 times with MPI_Start
 * ("persistent") or issued 20 times with MPI_Ibcast ("nonblocking"), each completed by MPI_Wait,
 * with the same data. The two modes must predict the same time (same_prediction.py). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 4096, TIMES = 20 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int persistent = argc > 1 && strcmp(argv[1], "persistent") == 0;
  static double buf[N];
  MPI_Request rq = MPI_REQUEST_NULL;
  if (persistent) MPI_Bcast_init(buf, N, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
  double sum = 0;
  for (int t = 0; t < TIMES; ++t) {
    if (rank == 0)
      for (int i = 0; i < N; ++i)
        buf[i] = t + i * 0.5;
    if (persistent)
      MPI_Start(&rq);
    else
      MPI_Ibcast(buf, N, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    sum += buf[N - 1] + buf[t];
  }
  if (persistent) MPI_Request_free(&rq);
  printf("rank %d: %s bcast %d times, sum %.1f\n", rank, persistent ? "persistent" : "nonblocking",
         TIMES, sum);
  MPI_Finalize();
  return 0;
}
