/* random_wildcards: every rank trades with three neighbours in rounds of random traffic, each
 * rank drawing its own numbers (srand per rank), and takes it with a random mix of blocking
 * receives that name source and tag, name the tag only (MPI_ANY_SOURCE) or neither, so that
 * wildcards and named receives compete for the same messages. Some messages are large enough for
 * the rendezvous protocol. Which receive takes which message depends on timing, so the program
 * prints what does not: the sum over all messages, that every (source, tag) stream arrived in
 * order, and how many receives of each kind the ranks made. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kRounds = 30, kTags = 3, kLarge = 3000 };

/* Message layout: sender, sequence number in its (destination, tag) stream, payload. */
enum { kFrom, kSeq, kValue, kHeader };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  srand(1234u + (unsigned)rank);
  const int streams = size * kTags;
  int* sendcnt = calloc((size_t)streams, sizeof(int));
  int* recvcnt = calloc((size_t)streams, sizeof(int));
  int* sent_seq = calloc((size_t)streams, sizeof(int));
  int* last_seq = calloc((size_t)streams, sizeof(int));
  int* message = malloc(kLarge * sizeof(int));
  long sum = 0, out_of_order = 0, any_any = 0, any_source = 0, named = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < streams; ++i)
      sendcnt[i] = 0;
    for (int k = 1; k <= 3 && k < size; ++k)
      for (int t = 0; t < kTags; ++t)
        sendcnt[((rank + k) % size) * kTags + t] = rand() % 3;
    MPI_Alltoall(sendcnt, kTags, MPI_INT, recvcnt, kTags, MPI_INT, MPI_COMM_WORLD);
    int nsend = 0, left = 0;
    for (int i = 0; i < streams; ++i)
      nsend += sendcnt[i], left += recvcnt[i];
    MPI_Request* requests = malloc(sizeof(MPI_Request) * (size_t)(nsend + 1));
    int** buffers = malloc(sizeof(int*) * (size_t)(nsend + 1));
    int s = 0;
    for (int d = 0; d < size; ++d)
      for (int t = 0; t < kTags; ++t)
        for (int c = 0; c < sendcnt[d * kTags + t]; ++c, ++s) {
          const int count = rand() % 4 == 0 ? kLarge : kHeader;
          buffers[s] = calloc((size_t)count, sizeof(int));
          buffers[s][kFrom] = rank;
          buffers[s][kSeq] = ++sent_seq[d * kTags + t];
          buffers[s][kValue] = rand() % 1000;
          MPI_Isend(buffers[s], count, MPI_INT, d, 10 + t, MPI_COMM_WORLD, &requests[s]);
        }
    while (left > 0) {
      MPI_Status st;
      const int mode = rand() % 3;
      if (mode == 0) {
        MPI_Recv(message, kLarge, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        ++any_any;
      } else {
        /* A stream with messages still to come: by name, or by its tag from any source. */
        int pick = rand() % streams;
        while (recvcnt[pick] == 0)
          pick = (pick + 1) % streams;
        const int tag = 10 + pick % kTags;
        if (mode == 1) {
          MPI_Recv(message, kLarge, MPI_INT, pick / kTags, tag, MPI_COMM_WORLD, &st);
          ++named;
        } else {
          MPI_Recv(message, kLarge, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
          ++any_source;
        }
      }
      const int stream = st.MPI_SOURCE * kTags + (st.MPI_TAG - 10);
      if (message[kFrom] != st.MPI_SOURCE || recvcnt[stream] <= 0) {
        printf("rank %d: a message from %d with tag %d it did not expect\n", rank, st.MPI_SOURCE,
               st.MPI_TAG);
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      if (message[kSeq] != last_seq[stream] + 1) ++out_of_order;
      last_seq[stream] = message[kSeq];
      --recvcnt[stream];
      --left;
      sum += (long)message[kValue] * st.MPI_TAG;
    }
    for (int i = 0; i < nsend; ++i) {
      MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
      free(buffers[i]);
    }
    free(buffers);
    free(requests);
  }
  long mine[5] = {sum, out_of_order, named, any_source, any_any}, all[5];
  MPI_Reduce(mine, all, 5, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("random_wildcards: %d ranks, sum %ld, out of order %ld, named %ld, any source %ld, "
           "any source and tag %ld\n",
           size, all[0], all[1], all[2], all[3], all[4]);
  free(message);
  free(sendcnt);
  free(recvcnt);
  free(sent_seq);
  free(last_seq);
  MPI_Finalize();
  return 0;
}
