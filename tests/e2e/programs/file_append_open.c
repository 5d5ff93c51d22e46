/* MPI_MODE_APPEND: every file pointer, individual and shared, starts at the end of the file as
 * it is at the collective open, even where a fast rank writes before a slow one has opened.
 * Each rank then moves its own pointer past the records of the ranks before it and writes one.
 * usage: file_append_open PATH */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { RECORD = 13 }; /* "record-of-rN\n" */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || size > 10) MPI_Abort(MPI_COMM_WORLD, 2);
  const char* path = argv[1];
  const char header[] = "header-line\n";
  MPI_File fh;
  if (rank == 0) {
    MPI_File_delete(path, MPI_INFO_NULL); /* a run before may have left it */
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    MPI_File_write_at(fh, 0, header, (int)strlen(header), MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh);
  MPI_Offset start, shared;
  MPI_File_get_position(fh, &start);
  MPI_File_get_position_shared(fh, &shared);
  char record[RECORD + 1];
  snprintf(record, sizeof record, "record-of-r%d\n", rank);
  MPI_File_seek(fh, (MPI_Offset)rank * RECORD, MPI_SEEK_CUR);
  MPI_File_write(fh, record, RECORD, MPI_CHAR, MPI_STATUS_IGNORE);
  printf("rank %d: opened at %lld, shared pointer at %lld\n", rank, (long long)start,
         (long long)shared);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    char want[200], got[200];
    strcpy(want, header);
    for (int r = 0; r < size; ++r)
      sprintf(want + strlen(want), "record-of-r%d\n", r);
    MPI_Offset bytes = 0;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                  &fh);
    MPI_File_get_size(fh, &bytes);
    memset(got, 0, sizeof got);
    if (bytes < (MPI_Offset)sizeof got)
      MPI_File_read_at(fh, 0, got, (int)bytes, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    printf("file_append_open: %d ranks, %lld bytes, %s\n", size, (long long)bytes,
           bytes == (MPI_Offset)strlen(want) && memcmp(got, want, strlen(want)) == 0
               ? "the header and every record in rank order"
               : "records misplaced");
  }
  MPI_Finalize();
  return 0;
}
