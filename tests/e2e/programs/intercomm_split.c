/* MPI_Comm_split and MPI_Comm_create on intercommunicators (5 ranks: groups of 3 and 2, made
 * contiguous and interleaved in MPI_COMM_WORLD). Split: color = local rank / 2 with keys that
 * reverse the order, so the last rank of the group of 3 asks for a color the other group does
 * not have (MPI_COMM_NULL); in the second round the second rank of the group of 2 passes
 * MPI_UNDEFINED. Create: the first two ranks of each group, then an empty group on
 * one side (MPI_COMM_NULL everywhere). On each new intercommunicator a rank reports its rank,
 * both sizes, the world ranks of its remote group and an Allreduce of world ranks across (the
 * other group's sum). Rank 0 prints every rank's line. */
#include <mpi.h>
#include <stdio.h>

#include "intercomm_pair.h"

#define LINE 160

static void describe(MPI_Comm c, char* out) {
  if (c == MPI_COMM_NULL) {
    snprintf(out, LINE, "null");
    return;
  }
  int inter, rank, size, rsize, wrank, sum = -1;
  MPI_Comm_test_inter(c, &inter);
  MPI_Comm_rank(c, &rank);
  MPI_Comm_size(c, &size);
  MPI_Comm_remote_size(c, &rsize);
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, c);
  MPI_Group remote, world;
  MPI_Comm_remote_group(c, &remote);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int ranks[8], wranks[8];
  for (int i = 0; i < rsize; ++i)
    ranks[i] = i;
  MPI_Group_translate_ranks(remote, rsize, ranks, world, wranks);
  MPI_Group_free(&remote);
  MPI_Group_free(&world);
  int n = snprintf(out, LINE, "inter %d rank %d of %d, remote %d:", inter, rank, size, rsize);
  for (int i = 0; i < rsize; ++i)
    n += snprintf(out + n, LINE - n, " %d", wranks[i]);
  snprintf(out + n, LINE - n, ", sum across %d", sum);
}

static void report(const char* what, MPI_Comm c) {
  char mine[LINE], all[8][LINE];
  describe(c, mine);
  MPI_Gather(mine, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
  int wrank, wsize;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  if (wrank == 0)
    for (int i = 0; i < wsize; ++i)
      printf("%s: rank %d: %s\n", what, i, all[i]);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (int interleaved = 0; interleaved < 2 && world_has(5); ++interleaved) {
    /* Contiguous: {0,1,2} and {3,4}; interleaved: {0,2,4} and {1,3}. */
    int g;
    MPI_Comm local, inter = intercomm_pair(interleaved, 3, &g, &local);
    int lr, L;
    MPI_Comm_rank(inter, &lr);
    MPI_Comm_size(inter, &L);
    char what[64];
    for (int round = 0; round < 2; ++round) {
      int color = lr / 2;
      if (round == 1 && L == 2 && lr == 1) color = MPI_UNDEFINED;
      MPI_Comm part;
      MPI_Comm_split(inter, color, -lr, &part);
      snprintf(what, sizeof what, "%s split %d", interleaved ? "interleaved" : "contiguous", round);
      report(what, part);
    }
    MPI_Group mine, firsts;
    MPI_Comm_group(inter, &mine);
    const int first_two[2] = {0, 1};
    MPI_Group_incl(mine, 2, first_two, &firsts);
    for (int round = 0; round < 2; ++round) {
      MPI_Comm made;
      MPI_Comm_create(inter, round == 1 && L == 2 ? MPI_GROUP_EMPTY : firsts, &made);
      snprintf(what, sizeof what, "%s create %d", interleaved ? "interleaved" : "contiguous",
               round);
      report(what, made);
    }
    MPI_Group_free(&firsts);
    MPI_Group_free(&mine);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  return done();
}
