/* MPI's non-overtaking rule across the eager limit: rank 1 sends rank 0 three messages with one
 * tag, a small one with MPI_Isend, a large one (400 KB: a rendezvous) with MPI_Send and a small
 * one with MPI_Send, and rank 0 receives them in the order they were sent: by naming the source,
 * with MPI_ANY_SOURCE, and after MPI_Probe. Every rank r of the upper half does the same to rank
 * r - size/2 at once (on 2 host processes, the pairs are split between them); then a small message
 * and an empty one. Prints, per round and message, the count and the first value received. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kBig = 100000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* big = malloc(kBig * sizeof(int));
  const char* rounds[] = {"named", "any source", "probed"};
  for (int round = 0; round < 3; ++round) {
    const int half = size / 2;
    if (rank >= half && rank - half < half) {
      int first = 10 * round + 1, last = 10 * round + 3;
      for (int k = 0; k < kBig; ++k)
        big[k] = 10 * round + 2;
      MPI_Request q;
      MPI_Isend(&first, 1, MPI_INT, rank - half, 7, MPI_COMM_WORLD, &q);
      MPI_Send(big, kBig, MPI_INT, rank - half, 7, MPI_COMM_WORLD);
      MPI_Send(&last, 1, MPI_INT, rank - half, 7, MPI_COMM_WORLD);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else if (rank < half) {
      for (int m = 0; m < 3; ++m) {
        MPI_Status s;
        if (round == 2) MPI_Probe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &s);
        MPI_Recv(big, kBig, MPI_INT, round == 0 ? rank + half : MPI_ANY_SOURCE, 7, MPI_COMM_WORLD,
                 &s);
        int count;
        MPI_Get_count(&s, MPI_INT, &count);
        printf("rank %d, %s, message %d: %d ints from rank %d, first %d\n", rank, rounds[round], m,
               count, s.MPI_SOURCE, big[0]);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  /* An empty message after a small one, with one tag: on 2 host processes the empty one left at
   * once while the first still waited at its NIC, and was received first. */
  const int half = size / 2;
  if (rank >= half && rank - half < half) {
    int small = 41;
    MPI_Request q[2];
    MPI_Isend(&small, 1, MPI_INT, rank - half, 8, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(NULL, 0, MPI_INT, rank - half, 8, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  } else if (rank < half) {
    for (int m = 0; m < 2; ++m) {
      MPI_Status s;
      big[0] = -1;
      MPI_Recv(big, kBig, MPI_INT, rank + half, 8, MPI_COMM_WORLD, &s);
      int count;
      MPI_Get_count(&s, MPI_INT, &count);
      printf("rank %d, empty after small, message %d: %d ints, first %d\n", rank, m, count, big[0]);
    }
  }
  free(big);
  MPI_Finalize();
  return 0;
}
