/* A coupled code in the style of climate models: the world splits into an "atmosphere"
 * (world ranks 0, 3, ...) and an "ocean" (the others), joined by an intercommunicator. The
 * components exchange boundary data rank to rank with wildcard receives, probe a message of
 * unknown size, broadcast from one component to the other (MPI_ROOT / MPI_PROC_NULL), reduce
 * and synchronise across the intercommunicator, duplicate it, and finally merge into one
 * intracommunicator (ocean first: it passes high = 0). Every rank prints what it saw. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int wrank, wsize;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  const int ocean = wrank % 3 != 0;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, ocean, wrank, &local);
  /* Leaders: world rank 0 leads the atmosphere, world rank 1 the ocean. */
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, ocean ? 0 : 1, 99, &inter);

  int flag, size, rank, rsize;
  MPI_Comm_test_inter(inter, &flag);
  MPI_Comm_size(inter, &size);
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_remote_size(inter, &rsize);
  MPI_Group remote, world_group;
  MPI_Comm_remote_group(inter, &remote);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int* in_remote = malloc(sizeof(int) * (size_t)rsize);
  int* in_world = malloc(sizeof(int) * (size_t)rsize);
  for (int i = 0; i < rsize; ++i)
    in_remote[i] = i;
  MPI_Group_translate_ranks(remote, rsize, in_remote, world_group, in_world);
  int remote_world_sum = 0;
  for (int i = 0; i < rsize; ++i)
    remote_world_sum = remote_world_sum * 10 + in_world[i];
  int topology;
  MPI_Topo_test(inter, &topology);
  printf("rank %d: %s inter %d size %d rank %d remote size %d remote world ranks %d topology %s\n",
         wrank, ocean ? "ocean" : "atmosphere", flag, size, rank, rsize, remote_world_sum,
         topology == MPI_UNDEFINED ? "undefined" : "some");

  /* Boundary exchange: every rank sends its value to every remote rank, tagged with its own
   * rank, and takes the remote ones in whatever order they come. */
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)rsize);
  int value = 100 * wrank + 1;
  for (int i = 0; i < rsize; ++i)
    MPI_Isend(&value, 1, MPI_INT, i, rank, inter, &reqs[i]);
  long weighted = 0;
  int tags_ok = 1;
  for (int i = 0; i < rsize; ++i) {
    int got;
    MPI_Status st;
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &st);
    tags_ok = tags_ok && st.MPI_TAG == st.MPI_SOURCE && got == 100 * in_world[st.MPI_SOURCE] + 1;
    weighted += (long)(st.MPI_SOURCE + 1) * got;
  }
  for (int i = 0; i < rsize; ++i)
    MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
  printf("rank %d: boundary weighted %ld sources ok %d\n", wrank, weighted, tags_ok);
  /* No rank's wildcard receive above may take the probed message below. */
  MPI_Barrier(inter);

  /* A message of unknown length: remote rank 0 sends rank + 2 doubles to each rank. */
  if (rank == 0) {
    for (int i = 0; i < rsize; ++i) {
      double line[16];
      for (int k = 0; k < i + 2; ++k)
        line[k] = wrank + 0.5 * k;
      MPI_Send(line, i + 2, MPI_DOUBLE, i, 7, inter);
    }
  }
  {
    MPI_Status st;
    int n;
    double line[16], sum = 0;
    MPI_Probe(MPI_ANY_SOURCE, 7, inter, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    MPI_Recv(line, n, MPI_DOUBLE, st.MPI_SOURCE, 7, inter, MPI_STATUS_IGNORE);
    for (int k = 0; k < n; ++k)
      sum += line[k];
    printf("rank %d: probed %d doubles from remote %d, sum %.1f\n", wrank, n, st.MPI_SOURCE, sum);
  }

  /* The atmosphere's leader broadcasts forcing to the ocean; then ocean rank 1 (not its
   * leader) broadcasts back. */
  int forcing[3] = {0, 0, 0};
  if (!ocean && rank == 0) forcing[0] = 7, forcing[1] = 8, forcing[2] = 9;
  MPI_Bcast(forcing, 3, MPI_INT, ocean ? 0 : (rank == 0 ? MPI_ROOT : MPI_PROC_NULL), inter);
  int flux = ocean && rank == 1 ? 4242 : -1;
  MPI_Bcast(&flux, 1, MPI_INT, ocean ? (rank == 1 ? MPI_ROOT : MPI_PROC_NULL) : 1, inter);
  printf("rank %d: forcing %d %d %d flux %d\n", wrank, forcing[0], forcing[1], forcing[2], flux);

  /* Each component gets the sum and the maximum of the other's world ranks. */
  int mine[2] = {wrank, wrank}, theirs[2];
  MPI_Allreduce(mine, theirs, 1, MPI_INT, MPI_SUM, inter);
  MPI_Allreduce(mine + 1, theirs + 1, 1, MPI_INT, MPI_MAX, inter);
  MPI_Barrier(inter);
  printf("rank %d: remote sum %d max %d\n", wrank, theirs[0], theirs[1]);

  /* A duplicate is an intercommunicator of the same groups, with its own traffic. */
  MPI_Comm dup;
  int cmp;
  MPI_Comm_dup(inter, &dup);
  MPI_Comm_compare(inter, dup, &cmp);
  MPI_Comm_test_inter(dup, &flag);
  int token = -1, echo = wrank;
  if (rank < rsize) /* local rank i pairs with remote rank i */
    MPI_Sendrecv(&echo, 1, MPI_INT, rank, 5, &token, 1, MPI_INT, MPI_ANY_SOURCE, 5, dup,
                 MPI_STATUS_IGNORE);
  MPI_Comm_free(&dup);
  printf("rank %d: dup congruent %d inter %d token from world %d\n", wrank, cmp == MPI_CONGRUENT,
         flag, token);

  /* Merge: the ocean (high = 0) comes first. */
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, ocean ? 0 : 1, &merged);
  int mrank, msize, check;
  MPI_Comm_rank(merged, &mrank);
  MPI_Comm_size(merged, &msize);
  MPI_Comm_test_inter(merged, &flag);
  int contribution = mrank * wrank;
  MPI_Allreduce(&contribution, &check, 1, MPI_INT, MPI_SUM, merged);
  printf("rank %d: merged rank %d of %d inter %d check %d\n", wrank, mrank, msize, flag, check);

  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Group_free(&remote);
  MPI_Group_free(&world_group);
  free(in_remote);
  free(in_world);
  free(reqs);
  MPI_Finalize();
  return 0;
}
