/* Each rank works in a directory of its own, as ensemble and checkpointing codes do: all ranks
 * enter the run's directory by a relative chdir, each makes and enters rank_<r>, writes a file
 * there by a relative path, and reads it back after a barrier (other ranks have run and
 * changed directory since). Rank 0 then checks every rank's file from the run's directory, and
 * a rank that enters its directory with fchdir reads it too. Prints, per rank, where getcwd()
 * says it is (relative to the run's directory) and what it read. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char* below(const char* path, const char* base) {
  size_t n = strlen(base);
  return strncmp(path, base, n) == 0 ? path + n : path;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char top[4096] = "";
  if (rank == 0) {
    char tmpl[] = "/tmp/mpisim-cwd-XXXXXX";
    if (!mkdtemp(tmpl)) return 1;
    snprintf(top, sizeof top, "%s", tmpl);
    if (chdir(top) != 0 || mkdir("run", 0700) != 0) return 1;
  }
  MPI_Bcast(top, sizeof top, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank != 0 && chdir(top) != 0) return 1;
  MPI_Barrier(MPI_COMM_WORLD);
  if (chdir("run") != 0) {
    printf("rank %d: chdir(\"run\") failed\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char base[4096];
  if (!getcwd(base, sizeof base)) return 1;
  char mine[32];
  snprintf(mine, sizeof mine, "rank_%d", rank);
  mkdir(mine, 0700);
  if (chdir(mine) != 0) return 1;
  MPI_Barrier(MPI_COMM_WORLD);
  FILE* f = fopen("value.txt", "w");
  fprintf(f, "%d\n", rank * 7 + 1);
  fclose(f);
  MPI_Barrier(MPI_COMM_WORLD);
  char here[4096];
  if (!getcwd(here, sizeof here)) return 1;
  int value = -1;
  f = fopen("value.txt", "r");
  if (f) {
    if (fscanf(f, "%d", &value) != 1) value = -2;
    fclose(f);
  }
  printf("rank %d: in run%s, read %d\n", rank, below(here, base), value);

  if (chdir("..") != 0) return 1;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int sum = 0;
    for (int r = 0; r < size; ++r) {
      char path[64];
      snprintf(path, sizeof path, "rank_%d/value.txt", r);
      f = fopen(path, "r");
      int v = 0;
      if (f) {
        if (fscanf(f, "%d", &v) != 1) v = 0;
        fclose(f);
      }
      sum += v;
    }
    printf("rank 0: the ranks' files sum to %d\n", sum);
  }
  int dir = open(mine, O_RDONLY | O_DIRECTORY);
  MPI_Barrier(MPI_COMM_WORLD);
  if (fchdir(dir) != 0) return 1;
  close(dir);
  MPI_Barrier(MPI_COMM_WORLD);
  f = fopen("value.txt", "r");
  value = -1;
  if (f) {
    if (fscanf(f, "%d", &value) != 1) value = -2;
    fclose(f);
  }
  printf("rank %d: after fchdir read %d\n", rank, value);
  unlink("value.txt");
  MPI_Barrier(MPI_COMM_WORLD);
  if (chdir(base) != 0) return 1;
  rmdir(mine);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    if (chdir(top) == 0) rmdir("run");
    if (chdir("/") == 0) rmdir(top);
  }
  MPI_Finalize();
  return 0;
}
