/* The collective calls through the shared file pointer come after every rank's earlier
 * independent ones: MPI_File_write_shared, then MPI_File_seek_shared(0, MPI_SEEK_CUR) (which
 * must see every rank's record), MPI_File_write_ordered (after them, in rank order), another
 * MPI_File_write_shared and MPI_File_set_view (whose new view starts the pointer again only
 * after it). Every record lands whole and once.
 * usage: file_shared_order PATH */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { RECORD = 8 }; /* "A-r00-x\n" */

static void record(char* out, char kind, int rank) {
  snprintf(out, RECORD + 1, "%c-r%02d-x\n", kind, rank);
}

/* How many records of `kind` of each rank lie in [from, from + n records) of `data`; 1 each is
 * right. */
static int each_once(const char* data, long from, int n, char kind, int size) {
  int seen[100] = {0};
  for (int i = 0; i < n; ++i) {
    const char* p = data + from + (long)i * RECORD;
    int r = -1;
    if (p[0] == kind && sscanf(p + 2, "r%2d", &r) == 1 && r >= 0 && r < size) ++seen[r];
  }
  for (int r = 0; r < size; ++r)
    if (seen[r] != 1) return 0;
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || size > 100) MPI_Abort(MPI_COMM_WORLD, 2);
  const char* path = argv[1];
  if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL); /* a run before may have left it */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  char rec[RECORD + 1];
  record(rec, 'A', rank);
  MPI_File_write_shared(fh, rec, RECORD, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_seek_shared(fh, 0, MPI_SEEK_CUR);
  MPI_Offset after_seek;
  MPI_File_get_position_shared(fh, &after_seek);
  record(rec, 'B', rank);
  MPI_File_write_ordered(fh, rec, RECORD, MPI_CHAR, MPI_STATUS_IGNORE);
  record(rec, 'C', rank);
  MPI_File_write_shared(fh, rec, RECORD, MPI_CHAR, MPI_STATUS_IGNORE);
  const MPI_Offset section = 1000;
  MPI_File_set_view(fh, section, MPI_CHAR, MPI_CHAR, "native", MPI_INFO_NULL);
  record(rec, 'D', rank);
  MPI_File_write_shared(fh, rec, RECORD, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    static char data[2000];
    MPI_Offset bytes = 0;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                  &fh);
    MPI_File_get_size(fh, &bytes);
    if (bytes <= (MPI_Offset)sizeof data)
      MPI_File_read_at(fh, 0, data, (int)bytes, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    int ordered = 1;
    for (int r = 0; r < size; ++r) {
      char want[RECORD + 1];
      record(want, 'B', r);
      ordered = ordered && memcmp(data + (long)(size + r) * RECORD, want, RECORD) == 0;
    }
    printf("file_shared_order: %d ranks, %lld bytes, pointer after seek_shared %lld, "
           "A each once %d, B in rank order %d, C each once %d, D each once %d\n",
           size, (long long)bytes, (long long)after_seek, each_once(data, 0, size, 'A', size),
           ordered, each_once(data, 2L * size * RECORD, size, 'C', size),
           each_once(data, section, size, 'D', size));
  }
  MPI_Finalize();
  return 0;
}
