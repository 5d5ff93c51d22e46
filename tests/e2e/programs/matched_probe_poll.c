/* A ring where each rank, every step, computes 1-5 us, sends 100 bytes to the next rank and
 * receives from the previous one, then sends 2000 bytes to the previous rank and polls until the
 * next one's is there: with MPI_Improbe and MPI_Mrecv ("improbe"), or MPI_Iprobe and MPI_Recv
 * ("iprobe"). Under the NIC model the polled message's arrival is decided by the receiving NIC, so
 * a poll must wait for that decision rather than take the message early.
 *
 * usage: matched_probe_poll improbe|iprobe */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int matched = argc > 1 && strcmp(argv[1], "improbe") == 0;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  static char out[4096], in[4096];
  long polls = 0;
  for (int s = 0; s < 4; ++s) {
    MPISIM_Compute(1e-6 * (1 + (rank * 7 + s * 3) % 5));
    MPI_Status st;
    MPI_Send(out, 100 + s, MPI_CHAR, next, 1, MPI_COMM_WORLD);
    MPI_Recv(in, sizeof in, MPI_CHAR, prev, 1, MPI_COMM_WORLD, &st);
    MPI_Request q;
    MPI_Isend(out, 2000, MPI_CHAR, prev, 2, MPI_COMM_WORLD, &q);
    int flag = 0;
    if (matched) {
      MPI_Message m;
      for (; !flag; ++polls)
        MPI_Improbe(next, 2, MPI_COMM_WORLD, &flag, &m, &st);
      MPI_Mrecv(in, 2000, MPI_CHAR, &m, &st);
    } else {
      for (; !flag; ++polls)
        MPI_Iprobe(next, 2, MPI_COMM_WORLD, &flag, &st);
      MPI_Recv(in, 2000, MPI_CHAR, next, 2, MPI_COMM_WORLD, &st);
    }
    MPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  printf("rank %d: %ld polls, done at %.9f s\n", rank, polls, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
