/* A master/worker code over an intercommunicator: world rank 0 is the master (its local
 * communicator is MPI_COMM_SELF), the others are workers. The master hands out tasks and
 * takes results from whichever worker answers (MPI_ANY_SOURCE, MPI_ANY_TAG), replying to
 * status.MPI_SOURCE: a rank of the workers' group. Which worker does which task depends on
 * timing, so only order-free results are printed. */
#include <mpi.h>
#include <stdio.h>

enum { kTasks = 20, kWork = 1, kStop = 2 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm workers, inter;
  MPI_Comm_split(MPI_COMM_WORLD, wrank == 0, wrank, &workers);
  if (wrank == 0)
    MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 1, 17, &inter);
  else
    MPI_Intercomm_create(workers, 0, MPI_COMM_WORLD, 0, 17, &inter);
  int nworkers;
  MPI_Comm_remote_size(inter, &nworkers);

  if (wrank == 0) {
    int assigned[64]; /* the task each worker holds */
    int next = 1, done = 0, mismatches = 0;
    long sum = 0;
    for (int w = 0; w < nworkers; ++w) {
      assigned[w] = next <= kTasks ? next : 0;
      MPI_Send(&assigned[w], 1, MPI_INT, w, next <= kTasks ? kWork : kStop, inter);
      if (next <= kTasks) ++next;
    }
    while (done < kTasks) {
      int result[2];
      MPI_Status st;
      MPI_Recv(result, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &st);
      mismatches += st.MPI_SOURCE < 0 || st.MPI_SOURCE >= nworkers ||
                    result[0] != assigned[st.MPI_SOURCE] || st.MPI_TAG != result[0];
      sum += result[1];
      ++done;
      assigned[st.MPI_SOURCE] = next <= kTasks ? next : 0;
      MPI_Send(&assigned[st.MPI_SOURCE], 1, MPI_INT, st.MPI_SOURCE, next <= kTasks ? kWork : kStop,
               inter);
      if (next <= kTasks) ++next;
    }
    printf("master: %d workers, %d results, sum of squares %ld, mismatches %d\n", nworkers, done,
           sum, mismatches);
  } else {
    int me, local_tasks = 0, total;
    MPI_Comm_rank(inter, &me);
    for (;;) {
      int task;
      MPI_Status st;
      MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, inter, &st);
      if (st.MPI_TAG == kStop) break;
      int result[2] = {task, task * task};
      MPI_Send(result, 2, MPI_INT, 0, task, inter);
      ++local_tasks;
    }
    /* The workers' own communicator still works beside the intercommunicator. */
    MPI_Allreduce(&local_tasks, &total, 1, MPI_INT, MPI_SUM, workers);
    printf("worker %d (world %d): stopped, workers did %d tasks\n", me, wrank, total);
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&workers);
  MPI_Finalize();
  return 0;
}
