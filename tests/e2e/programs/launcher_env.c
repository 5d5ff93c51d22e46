/* The variables mpiexec sets in each process, read before MPI_Init (as codes do to pick a device
   or a file name) and after it: each rank reads its own, on any number of host processes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const char* value(const char* name) {
  const char* v = getenv(name);
  return v ? v : "(unset)";
}

int main(int argc, char** argv) {
  const char* before = value("PMI_RANK");
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  const int matches = atoi(before) == rank && atoi(value("PMI_SIZE")) == size;
  printf("rank %d: PMI_RANK %s before MPI_Init, %s after; PMI_SIZE %s; %s\n", rank, before,
         value("PMI_RANK"), value("PMI_SIZE"), matches ? "its own" : "not its own");
  printf("rank %d: HOME is %s\n", rank, getenv("HOME") ? "set" : "unset");
  MPI_Finalize();
  return 0;
}
