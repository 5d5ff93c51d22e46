/* Files opened on communicators of disjoint groups (each rank's MPI_COMM_SELF, the halves of a
 * split) each have their own shared file pointer, and MPI_File_set_size and
 * MPI_File_preallocate act when every rank has reached them. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_File fh;
  MPI_Offset at, bytes;
  char path[64], line[64], back[256];

  snprintf(path, sizeof path, "self_%d.txt", rank);
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &fh);
  for (int i = 0; i < 3; ++i) {
    int len = snprintf(line, sizeof line, "r%d.%d;", rank, i);
    MPI_File_write_shared(fh, line, len, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_File_get_position_shared(fh, &at);
  MPI_File_get_size(fh, &bytes);
  memset(back, 0, sizeof back);
  MPI_File_read_at(fh, 0, back, (int)bytes, MPI_CHAR, MPI_STATUS_IGNORE);
  printf("rank %d: own file at %lld of %lld: %s\n", rank, (long long)at, (long long)bytes, back);
  MPI_File_close(&fh);

  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int member;
  MPI_Comm_rank(half, &member);
  snprintf(path, sizeof path, "half_%d.txt", rank % 2);
  MPI_File_open(half, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &fh);
  for (int i = 0; i < 2; ++i) {
    int len = snprintf(line, sizeof line, "h%d.%d.%d;", rank % 2, member, i);
    MPI_File_write_ordered(fh, line, len, MPI_CHAR, MPI_STATUS_IGNORE);
  }
  MPI_File_get_position_shared(fh, &at);
  MPI_File_sync(fh);
  MPI_Barrier(half);
  memset(back, 0, sizeof back);
  MPI_File_read_at(fh, 0, back, (int)at, MPI_CHAR, MPI_STATUS_IGNORE);
  printf("rank %d: half %d at %lld: %s\n", rank, rank % 2, (long long)at, back);
  MPI_File_close(&fh);
  MPI_Comm_free(&half);

  char record[100];
  memset(record, 'a' + rank, sizeof record);
  MPI_File_open(MPI_COMM_WORLD, "cut.bin",
                MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
  MPI_File_write_at(fh, (MPI_Offset)rank * 100, record, 100, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_set_size(fh, (MPI_Offset)size * 50);
  MPI_File_get_size(fh, &bytes);
  printf("rank %d: after set_size %lld\n", rank, (long long)bytes);
  MPI_File_preallocate(fh, 1000);
  MPI_File_get_size(fh, &bytes);
  printf("rank %d: after preallocate %lld\n", rank, (long long)bytes);
  MPI_File_set_size(fh, 10);
  MPI_File_get_size(fh, &bytes);
  printf("rank %d: after the second set_size %lld\n", rank, (long long)bytes);
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
