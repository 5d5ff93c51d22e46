/* The intercommunicators of the intercomm_* conformance programs: MPI_COMM_WORLD's ranks in two
 * groups, contiguous (the first `first` world ranks and the rest) or interleaved (the even and
 * the odd world ranks). */
#include <mpi.h>
#include <stdio.h>

/* Whether MPI_COMM_WORLD has `n` ranks (rank 0 says so when it has not). */
static int world_has(int n) {
  int wrank, wsize;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  if (wsize != n && wrank == 0) printf("needs %d ranks\n", n);
  return wsize == n;
}

/* The intercommunicator of the caller's group (0 or 1, set in *group) and the other; *local is
 * the group's own communicator, for the caller to free. */
static MPI_Comm intercomm_pair(int interleaved, int first, int* group, MPI_Comm* local) {
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  const int g = interleaved ? wrank % 2 : wrank >= first;
  MPI_Comm inter;
  MPI_Comm_split(MPI_COMM_WORLD, g, wrank, local);
  MPI_Intercomm_create(*local, 0, MPI_COMM_WORLD, interleaved ? 1 - g : (g ? 0 : first), 7, &inter);
  *group = g;
  return inter;
}

/* The end of a program: rank 0 says "done". */
static int done(void) {
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  if (wrank == 0) printf("done\n");
  MPI_Finalize();
  return 0;
}
