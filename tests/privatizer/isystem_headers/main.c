/* The headers of folders given with -idirafter (or -isystem) are the program's: their globals
   are per rank. */
#include <mpi.h>
#include <stdio.h>

#include <hdronly/counter.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int t = 0;
  for (int i = 0; i <= r; i++)
    t = hdr_tick();
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: tick %d, calls %d\n", r, t, hdr_calls);
  MPI_Finalize();
  return 0;
}
