/* Each rank changes its environment, as codes do to configure a library per rank (the number
 * of threads, a scratch directory): every rank sets MY_RANK_VAR to its own value, rank 1 unsets
 * PATH, rank 2 adds a variable with putenv, rank 3 clears everything and sets one variable.
 * After a barrier (the other ranks have run meanwhile) each prints what it reads. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern char** environ;

static const char* value(const char* name) {
  const char* v = getenv(name);
  return v ? v : "(unset)";
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char mine[32];
  snprintf(mine, sizeof mine, "val%d", rank);
  setenv("MY_RANK_VAR", mine, 1);
  static char put[] = "PUT_VAR=two";
  if (rank == 1) unsetenv("PATH");
  if (rank == 2) putenv(put);
  if (rank == 3) {
    clearenv();
    setenv("ONLY", "1", 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int entries = 0;
  for (char** e = environ; e && *e; ++e)
    ++entries;
  printf("rank %d: MY_RANK_VAR %s, PATH %s, PUT_VAR %s, ONLY %s%s\n", rank, value("MY_RANK_VAR"),
         getenv("PATH") ? "set" : "unset", value("PUT_VAR"), value("ONLY"),
         entries == 1 ? ", one variable" : "");
  MPI_Finalize();
  return 0;
}
