/* Codes that use their process id, as each MPI process has its own: a scratch file named after
 * getpid() in a directory all ranks share (out-of-core and checkpointing codes), a generator
 * seeded with it, a check that the process exists (kill with signal 0), and a memory report
 * read from /proc/<pid>/status, the cores it may run on. Prints, per rank, what it read back, and
 * whether the ids and the seeded numbers differ between ranks. With argument "signal", rank 0
 * signals rank 1's process, which mpisim cannot do to one rank alone. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int distinct(const int* v, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (v[i] == v[j]) return 0;
  return 1;
}

int main(int argc, char** argv) {
  const pid_t before_init = getpid();
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const pid_t me = getpid();
  int* pids = malloc(sizeof(int) * size);
  int mine = (int)me;
  MPI_Allgather(&mine, 1, MPI_INT, pids, 1, MPI_INT, MPI_COMM_WORLD);

  if (argc > 1 && strcmp(argv[1], "signal") == 0) {
    if (rank == 0) kill(pids[1], SIGUSR1);
    MPI_Finalize();
    return 0;
  }

  char dir[64] = "";
  if (rank == 0) {
    strcpy(dir, "/tmp/mpisim-pid-XXXXXX");
    if (!mkdtemp(dir)) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  char name[128];
  snprintf(name, sizeof name, "%s/scratch.%d", dir, (int)getpid());
  FILE* f = fopen(name, "w");
  const int n = 10 + rank;
  for (int i = 0; i < n; ++i)
    fprintf(f, "%d\n", rank * 100 + i);
  fclose(f);
  MPI_Barrier(MPI_COMM_WORLD); /* every rank has written its file */
  f = fopen(name, "r");
  long sum = 0;
  int v, count = 0;
  while (fscanf(f, "%d", &v) == 1) {
    sum += v;
    ++count;
  }
  fclose(f);
  MPI_Barrier(MPI_COMM_WORLD); /* every rank has read its file */
  remove(name);
  if (rank == 0) rmdir(dir);

  srand((unsigned)getpid());
  int first = rand();
  int* firsts = malloc(sizeof(int) * size);
  MPI_Allgather(&first, 1, MPI_INT, firsts, 1, MPI_INT, MPI_COMM_WORLD);

  char status_path[64];
  snprintf(status_path, sizeof status_path, "/proc/%d/status", (int)getpid());
  FILE* status = fopen(status_path, "r");
  int rss_line = 0;
  char line[256];
  while (status && fgets(line, sizeof line, status))
    rss_line |= strncmp(line, "VmRSS:", 6) == 0;
  if (status) fclose(status);

  cpu_set_t cores;
  const int affinity = sched_getaffinity(me, sizeof cores, &cores) == 0 && CPU_COUNT(&cores) > 0;
  printf("rank %d: read back %d numbers, sum %ld; same id before MPI_Init %d; exists %d; "
         "memory report %d; affinity %d\n",
         rank, count, sum, before_init == me, kill(me, 0) == 0, rss_line, affinity);
  if (rank == 0)
    printf("%d ranks: ids distinct %d, seeded numbers distinct %d\n", size, distinct(pids, size),
           distinct(firsts, size));
  free(pids);
  free(firsts);
  MPI_Finalize();
  return 0;
}
