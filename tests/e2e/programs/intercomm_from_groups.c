/* MPI-4.0 MPI_Intercomm_create_from_groups: the group of mpi://WORLD, from a session, splits into
 * the even world ranks and the odd ones, and an intercommunicator joins them; the even group is
 * led by its rank 1 (world rank 2), the odd one by its rank 0 (world rank 1). Meanwhile every
 * rank has a receive from any source with any tag pending on MPI_COMM_WORLD and on a duplicate
 * of it, which the leaders' exchange of their groups must not take. Each rank checks its sizes,
 * ranks, remote group and error handler, sends to a rank of the other group and receives from
 * any source there, runs an allreduce and a broadcast across, and merges a second
 * intercommunicator of the same groups (default leaders, another string tag); then the pending
 * receives get their messages, from the rank to the left. Rank 0 prints every rank's lines.
 * With "leader_inside", each group names one of its own ranks as the remote leader. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kFields = 20, kMaxRemote = 8 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int wrank, wsize;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  if (wsize < 3 || wsize > 2 * kMaxRemote) {
    if (wrank == 0) printf("needs 3 to %d ranks\n", 2 * kMaxRemote);
    MPI_Finalize();
    return 1;
  }
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int pending[2] = {-1, -1};
  MPI_Request preq[2];
  MPI_Irecv(&pending[0], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &preq[0]);
  MPI_Irecv(&pending[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &preq[1]);

  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Group world, parity[2];
  MPI_Group_from_session_pset(session, "mpi://WORLD", &world);
  int* members = malloc(sizeof(int) * (size_t)wsize);
  for (int p = 0; p < 2; ++p) {
    int n = 0;
    for (int r = p; r < wsize; r += 2)
      members[n++] = r;
    MPI_Group_incl(world, n, members, &parity[p]);
  }
  free(members);
  const int odd = wrank % 2;
  if (argc > 1 && strcmp(argv[1], "leader_inside") == 0) {
    /* Erroneous: each group names one of its own ranks as the remote leader. */
    MPI_Comm bad;
    MPI_Intercomm_create_from_groups(parity[odd], 0, parity[odd], 1, "mpisim.bad", MPI_INFO_NULL,
                                     MPI_ERRORS_ARE_FATAL, &bad);
  }

  MPI_Comm inter;
  const int rc = MPI_Intercomm_create_from_groups(parity[odd], odd ? 0 : 1, parity[!odd],
                                                  odd ? 1 : 0, "mpisim.intercomm_from_groups",
                                                  MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter);
  int f[kFields] = {0};
  f[0] = rc;
  MPI_Comm_test_inter(inter, &f[1]);
  int rank, size, rsize;
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_size(inter, &size);
  MPI_Comm_remote_size(inter, &rsize);
  f[2] = rank;
  f[3] = size;
  f[4] = rsize;
  MPI_Group remote;
  MPI_Comm_remote_group(inter, &remote);
  int in_remote[kMaxRemote], in_world[kMaxRemote];
  for (int i = 0; i < rsize; ++i)
    in_remote[i] = i;
  MPI_Group_translate_ranks(remote, rsize, in_remote, world, in_world);
  for (int i = 0; i < rsize; ++i)
    f[5] |= 1 << in_world[i];
  MPI_Errhandler handler;
  MPI_Comm_get_errhandler(inter, &handler);
  f[6] = handler == MPI_ERRORS_RETURN;
  if (handler != MPI_ERRORS_RETURN) MPI_Errhandler_free(&handler);

  /* Each rank sends its world rank to remote rank (rank mod rsize) and takes what is sent to it
   * from any source with any tag. */
  MPI_Request sreq;
  MPI_Isend(&wrank, 1, MPI_INT, rank % rsize, 5, inter, &sreq);
  for (int j = rank; j < rsize; j += size) {
    int from;
    MPI_Status st;
    MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &st);
    f[7] += 1;
    f[8] += from;
    f[9] += in_world[st.MPI_SOURCE] == from && st.MPI_TAG == 5;
  }
  MPI_Wait(&sreq, MPI_STATUS_IGNORE);

  const int mine = wrank + 1;
  MPI_Allreduce(&mine, &f[10], 1, MPI_INT, MPI_SUM, inter);
  f[11] = odd ? 0 : 4242;
  MPI_Bcast(&f[11], 1, MPI_INT, odd ? 0 : (rank == 0 ? MPI_ROOT : MPI_PROC_NULL), inter);

  MPI_Comm second, merged;
  MPI_Intercomm_create_from_groups(parity[odd], 0, parity[!odd], 0, "mpisim.second", MPI_INFO_NULL,
                                   MPI_ERRORS_ARE_FATAL, &second);
  MPI_Intercomm_merge(second, odd, &merged);
  MPI_Comm_rank(merged, &f[12]);
  MPI_Comm_size(merged, &f[13]);

  /* Release the pending receives: each rank sends to the next world rank. */
  const int next = (wrank + 1) % wsize;
  const int to_world = 100 + wrank, to_dup = 200 + wrank;
  MPI_Send(&to_world, 1, MPI_INT, next, 11, MPI_COMM_WORLD);
  MPI_Send(&to_dup, 1, MPI_INT, next, 12, dup);
  MPI_Status pst[2];
  MPI_Waitall(2, preq, pst);
  f[14] = pending[0];
  f[15] = pst[0].MPI_SOURCE;
  f[16] = pst[0].MPI_TAG;
  f[17] = pending[1];
  f[18] = pst[1].MPI_SOURCE;
  f[19] = pst[1].MPI_TAG;

  int* all = malloc(sizeof(int) * kFields * (size_t)wsize);
  MPI_Gather(f, kFields, MPI_INT, all, kFields, MPI_INT, 0, MPI_COMM_WORLD);
  if (wrank == 0) {
    for (int r = 0; r < wsize; ++r) {
      const int* g = all + kFields * r;
      char ranks[64] = "";
      for (int i = 0, n = 0; i < wsize; ++i)
        if (g[5] >> i & 1) n += snprintf(ranks + n, sizeof ranks - (size_t)n, " %d", i);
      printf("rank %d: %s group, rc %d, inter %d, rank %d of %d, remote size %d, remote world "
             "ranks%s, handler of the call %d\n",
             r, r % 2 ? "odd" : "even", g[0], g[1], g[2], g[3], g[4], ranks, g[6]);
      printf("rank %d: received %d from world ranks summing %d (%d matched), allreduce %d, "
             "bcast %d, merged rank %d of %d\n",
             r, g[7], g[8], g[9], g[10], g[11], g[12], g[13]);
      printf("rank %d: pending receives got %d from %d tag %d, %d from %d tag %d\n", r, g[14],
             g[15], g[16], g[17], g[18], g[19]);
    }
  }
  free(all);

  MPI_Comm_free(&merged);
  MPI_Comm_free(&second);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&dup);
  MPI_Group_free(&remote);
  MPI_Group_free(&parity[0]);
  MPI_Group_free(&parity[1]);
  MPI_Group_free(&world);
  MPI_Session_finalize(&session);
  MPI_Finalize();
  return 0;
}
