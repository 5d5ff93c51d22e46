/* A master (alone in its group) takes two results with MPI_ANY_SOURCE over an
 * intercommunicator. Worker 0 spends 1 ms of simulated time before it answers; worker 2 answers
 * at once in simulated time but only after a long real busy loop, so that on several host
 * processes its message reaches the master's host last. The master must still take worker 2's
 * first: its host holds the master and worker 0 (waiting on the master), and a host that took
 * itself for waiting only on itself would decide on worker 0's message alone. */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>

/* Real work of about a quarter of a second (the program's clocks are simulated ones). */
static double busy_wall(void) {
  volatile double x = 1.0;
  for (long i = 0; i < 200000000L; ++i)
    x = x * 1.0000001 + 1e-9;
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int wrank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (wrank == 0) fprintf(stderr, "intercomm_late_result: run with 4 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm workers, inter;
  MPI_Comm_split(MPI_COMM_WORLD, wrank == 0, wrank, &workers);
  if (wrank == 0)
    MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 1, 7, &inter);
  else
    MPI_Intercomm_create(workers, 0, MPI_COMM_WORLD, 0, 7, &inter);
  if (wrank == 0) {
    for (int i = 0; i < 2; ++i) {
      int from;
      MPI_Status st;
      MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, inter, &st);
      printf("master: result %d from worker %d\n", i, st.MPI_SOURCE);
    }
    int stop = 0;
    for (int w = 0; w < 3; ++w)
      MPI_Send(&stop, 1, MPI_INT, w, 1, inter);
  } else {
    int me;
    MPI_Comm_rank(workers, &me);
    if (me == 0) MPISIM_Compute(1e-3);
    if (me == 2 && busy_wall() < 0) return 1;
    if (me != 1) MPI_Send(&me, 1, MPI_INT, 0, 0, inter);
    int stop;
    MPI_Recv(&stop, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&workers);
  MPI_Finalize();
  return 0;
}
