/* Long broadcasts on enough ranks that the last pieces of the scatter + ring allgather are short
 * or empty (MPICH's algorithm for 12 KiB and more on 8 ranks or more): a piece of no bytes passes
 * between ranks like any other and must not overtake the one sent before it. Each rank prints a
 * digest of everything it received; rank 0 the number of wrong bytes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* On 200 ranks: pieces of 62 bytes, the last of none (12290, 12300) or all full (12400). */
  const int sizes[] = {12290, 12300, 12400};
  const int roots[] = {0, 3, size - 1};
  unsigned long digest = 0;
  int wrong = 0;
  for (int s = 0; s < 3; ++s)
    for (int k = 0; k < 3; ++k) {
      const int n = sizes[s], root = roots[k];
      unsigned char* b = malloc(n);
      for (int i = 0; i < n; ++i)
        b[i] = rank == root ? (unsigned char)(i * 7 + s + k) : 0;
      MPI_Bcast(b, n, MPI_BYTE, root, MPI_COMM_WORLD);
      for (int i = 0; i < n; ++i) {
        wrong += b[i] != (unsigned char)(i * 7 + s + k);
        digest = digest * 31 + b[i];
      }
      free(b);
    }
  printf("rank %d: digest %lu\n", rank, digest);
  int total = 0;
  MPI_Reduce(&wrong, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("bcast pieces: %d ranks, %d wrong bytes\n", size, total);
  MPI_Finalize();
  return 0;
}
