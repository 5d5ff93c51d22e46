/* many_sources: rank 0 waits for every other rank at once, as a gather by hand does, with the
 * receives that MPI's matching order makes delicate mixed in: two receives per source (the
 * first posted takes the first sent), a second communicator whose receives name the same
 * sources, and wildcard receives posted between them (each takes some rank's tag-2 message;
 * which one depends on timing, so only their set is printed). Completed with MPI_Waitany, so
 * that receives complete while others are still posted. Prints what rank 0 received. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm other;
  MPI_Comm_dup(MPI_COMM_WORLD, &other);
  const int wild = size / 2; /* ranks 1..wild also send one tag-2 message */
  if (rank == 0) {
    const int n = 3 * (size - 1) + wild;
    MPI_Request* req = malloc(sizeof(MPI_Request) * (size_t)n);
    int* got = malloc(sizeof(int) * (size_t)n);
    int k = 0;
    for (int s = 1; s < size; ++s) {
      MPI_Irecv(&got[k], 1, MPI_INT, s, 1, MPI_COMM_WORLD, &req[k]);
      ++k;
      if (s == size / 3) /* wildcards after a third of the named receives */
        for (int i = 0; i < wild; ++i, ++k)
          MPI_Irecv(&got[k], 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &req[k]);
    }
    for (int s = size - 1; s >= 1; --s, ++k)
      MPI_Irecv(&got[k], 1, MPI_INT, s, 1, MPI_COMM_WORLD, &req[k]);
    for (int s = 1; s < size; ++s, ++k)
      MPI_Irecv(&got[k], 1, MPI_INT, s, 5, other, &req[k]);
    long order_errors = 0, sum = 0, wild_sum = 0, other_sum = 0;
    for (int done = 0; done < n; ++done) {
      int i = 0;
      MPI_Status st;
      MPI_Waitany(n, req, &i, &st);
      if (st.MPI_TAG == 2) {
        wild_sum += st.MPI_SOURCE;
        if (got[i] != -st.MPI_SOURCE) ++order_errors;
      } else if (st.MPI_TAG == 5) {
        other_sum += got[i];
      } else {
        sum += got[i];
        /* The first receive posted for a source takes its first message (value 1000 * s). */
        const int first = i < size - 1 + wild ? 1 : 0;
        if (got[i] != 1000 * st.MPI_SOURCE + (first ? 0 : 1)) ++order_errors;
      }
    }
    printf("many_sources: %d ranks, %d receives, named %ld, wildcards %ld, other comm %ld, "
           "out of order %ld\n",
           size, n, sum, wild_sum, other_sum, order_errors);
    free(req);
    free(got);
  } else {
    const int first = 1000 * rank, second = 1000 * rank + 1, minus = -rank, mine = 7 * rank;
    MPI_Send(&mine, 1, MPI_INT, 0, 5, other);
    if (rank <= wild) MPI_Send(&minus, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    MPI_Send(&first, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Send(&second, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
  }
  MPI_Comm_free(&other);
  MPI_Finalize();
  return 0;
}
