/* Independent writes through the shared file pointer: each rank appends one record; every
 * record lands whole, once (MPI leaves their order open).
 * usage: file_shared_pointer PATH */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { WORDS = 16 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &fh);
  int record[WORDS];
  for (int i = 0; i < WORDS; ++i)
    record[i] = rank;
  MPI_File_write_shared(fh, record, WORDS, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int* all = malloc(sizeof(int) * WORDS * (size_t)size);
    int* seen = calloc((size_t)size, sizeof(int));
    int whole = 0;
    MPI_File_read_at(fh, 0, all, WORDS * size, MPI_INT, MPI_STATUS_IGNORE);
    for (int r = 0; r < size; ++r) {
      int same = 1;
      for (int i = 1; i < WORDS; ++i)
        same &= all[r * WORDS + i] == all[r * WORDS];
      const int who = all[r * WORDS];
      if (same && who >= 0 && who < size && seen[who]++ == 0) ++whole;
    }
    printf("file_shared_pointer: %d ranks wrote %d records, each once\n", size, whole);
    free(all);
    free(seen);
  }
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
