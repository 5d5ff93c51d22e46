/* MPI-IO as applications use it: a checkpoint of a block-cyclic array written through a file
 * view, read back whole by every rank; a strided memory type; non-blocking and split collective
 * accesses; a seek to the end; a log written in rank order through the shared file pointer; the
 * error class of a missing file. Prints what it reads: MPICH prints the same.
 * usage: file_io PATH            (PATH and PATH.log are made and deleted)
 *        file_io PATH time BYTES (prints the times of independent, collective and non-blocking
 *                                 writes) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 8, BLOCKS = 3 };

static int failed = 0;

static void check(int ok, int rank, const char* what) {
  if (!ok) {
    ++failed;
    printf("file_io: rank %d: %s is wrong\n", rank, what);
  }
}

/* The value of element i of a rank's block b in the checkpoint. */
static double value(int owner, int b, int i) {
  return 1000.0 * owner + 100.0 * b + i;
}

static void timing(const char* path, long bytes, int rank) {
  char* data = calloc((size_t)bytes, 1);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_File_write_at(fh, rank * bytes, data, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
  double t1 = MPI_Wtime();
  MPI_File_write_at_all(fh, rank * bytes, data, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
  double t2 = MPI_Wtime();
  printf("file_io: rank %d: write_at %.3f us, write_at_all %.3f us\n", rank, (t1 - t0) * 1e6,
         (t2 - t1) * 1e6);
  /* Non-blocking writes and a blocking one among them take the rank's path one after another. */
  MPI_Request q[4];
  MPI_Status done[4];
  for (int i = 0; i < 4; ++i)
    MPI_File_iwrite_at(fh, rank * bytes, data, (int)bytes, MPI_BYTE, &q[i]);
  MPI_File_write_at(fh, rank * bytes, data, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_Waitall(4, q, done);
  double t3 = MPI_Wtime();
  printf("file_io: rank %d: 4 iwrite_at and a write_at %.3f us\n", rank, (t3 - t2) * 1e6);
  MPI_File_close(&fh);
  free(data);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: file_io PATH [time BYTES]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char* path = argv[1];
  if (argc == 4 && strcmp(argv[2], "time") == 0) {
    timing(path, atol(argv[3]), rank);
    MPI_Finalize();
    return 0;
  }
  char logpath[512];
  snprintf(logpath, sizeof logpath, "%s.log", path);
  if (rank == 0) {
    MPI_File_delete(path, MPI_INFO_NULL);
    MPI_File_delete(logpath, MPI_INFO_NULL);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 1. The checkpoint: block b of rank r is global block b * size + r. */
  double local[BLOCKS * N];
  for (int b = 0; b < BLOCKS; ++b)
    for (int i = 0; i < N; ++i)
      local[b * N + i] = value(rank, b, i);
  MPI_Datatype filetype;
  MPI_Type_vector(BLOCKS, N, N * size, MPI_DOUBLE, &filetype);
  MPI_Type_commit(&filetype);
  MPI_File fh;
  MPI_Status st;
  int count = -1;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_set_view(fh, (MPI_Offset)rank * N * sizeof(double), MPI_DOUBLE, filetype, "native",
                    MPI_INFO_NULL);
  MPI_Type_free(&filetype); /* the view keeps its own */
  MPI_File_write_all(fh, local, BLOCKS * N, MPI_DOUBLE, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  check(count == BLOCKS * N, rank, "the count of write_all");
  MPI_Offset pos = -1, byte = -1;
  MPI_File_get_position(fh, &pos);
  MPI_File_get_byte_offset(fh, pos - 1, &byte);
  check(pos == BLOCKS * N, rank, "the position after write_all");
  check(byte == (MPI_Offset)(((BLOCKS - 1) * size + rank) * N + N - 1) * 8, rank,
        "the byte offset of the last element");
  MPI_File_sync(fh);
  MPI_Offset fsize = 0;
  MPI_File_get_size(fh, &fsize);
  if (rank == 0) printf("file_io: checkpoint of %lld bytes\n", (long long)fsize);

  /* 2. Every rank reads the whole file through the default view. */
  const int total = size * BLOCKS * N;
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  double* all = malloc(sizeof(double) * (size_t)total);
  MPI_File_read_at(fh, 0, all, total, MPI_DOUBLE, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  int wrong = 0;
  double sum = 0;
  for (int j = 0; j < total; ++j) {
    const int block = j / N;
    wrong += all[j] != value(block % size, block / size, j % N);
    sum += all[j];
  }
  printf("rank %d: file_io read %d doubles, sum %.1f, %d wrong\n", rank, count, sum, wrong);

  /* 3. Its own blocks again, collectively, into every other double of a buffer. */
  MPI_Datatype strided;
  MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &strided);
  MPI_Type_commit(&strided);
  double spread[2 * N];
  memset(spread, 0, sizeof spread);
  const MPI_Offset mine = (MPI_Offset)((BLOCKS - 1) * size + rank) * N * 8;
  MPI_File_read_at_all(fh, mine, spread, 1, strided, &st);
  int ok = 1;
  for (int i = 0; i < N; ++i)
    ok &= spread[2 * i] == value(rank, BLOCKS - 1, i) && spread[2 * i + 1] == 0;
  check(ok, rank, "the strided read_at_all");
  MPI_Type_free(&strided);

  /* 4. Non-blocking: each rank appends its rank after the checkpoint, then reads a neighbour's. */
  MPI_Request req;
  int word = 7000 + rank, back = -1;
  MPI_File_iwrite_at(fh, fsize + 4 * rank, &word, 1, MPI_INT, &req);
  MPI_Wait(&req, &st);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_iread_at(fh, fsize + 4 * ((rank + 1) % size), &back, 1, MPI_INT, &req);
  MPI_Wait(&req, &st);
  check(back == 7000 + (rank + 1) % size, rank, "the neighbour's word");

  /* 5. Split collective through the individual pointer; then a seek to the end. */
  double first[N];
  MPI_File_seek(fh, (MPI_Offset)rank * N * 8, MPI_SEEK_SET);
  MPI_File_read_all_begin(fh, first, N, MPI_DOUBLE);
  MPI_File_read_all_end(fh, first, &st);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  check(count == N && first[N - 1] == value(rank, 0, N - 1), rank, "the split read_all");
  MPI_File_seek(fh, 0, MPI_SEEK_END);
  MPI_File_get_position(fh, &pos);
  check(pos == fsize + 4 * size, rank, "the position at the end");
  MPI_File_close(&fh);
  check(fh == MPI_FILE_NULL, rank, "the handle after close");

  /* 6. A log in rank order through the shared file pointer. */
  char line[64];
  const int len =
      snprintf(line, sizeof line, "rank %d of %d %.*s\n", rank, size, rank % 8 + 1, "########");
  MPI_File_open(MPI_COMM_WORLD, logpath, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_File_write_ordered(fh, line, len, MPI_CHAR, &st);
  MPI_File_get_position_shared(fh, &pos);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    FILE* in = fopen(logpath, "r");
    while (in && fgets(line, sizeof line, in))
      printf("file_io: log: %s", line);
    if (in) fclose(in);
    printf("file_io: shared pointer after the log: %lld\n", (long long)pos);
  }

  /* 7. Errors return by default on files. */
  int err =
      MPI_File_open(MPI_COMM_WORLD, "/nonexistent-dir/file", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  int cls = -1;
  MPI_Error_class(err, &cls);
  if (rank == 0)
    printf("file_io: opening a missing file: %s\n",
           cls == MPI_ERR_NO_SUCH_FILE ? "MPI_ERR_NO_SUCH_FILE" : "another class");

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_File_delete(path, MPI_INFO_NULL);
    MPI_File_delete(logpath, MPI_INFO_NULL);
  }
  free(all);
  int failures = 0;
  MPI_Reduce(&failed, &failures, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("file_io: %d ranks, %d failed checks\n", size, failures);
  MPI_Finalize();
  return 0;
}
