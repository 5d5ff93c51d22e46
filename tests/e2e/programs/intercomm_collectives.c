/* Every collective on an intercommunicator of two unequal groups (5 ranks: 2 and 3), built
 * twice: from groups that are contiguous in MPI_COMM_WORLD and from interleaved ones. Each
 * rooted collective runs with its root in either group; each collective blocking and
 * non-blocking, and two non-blocking ones in flight together. Every buffer is filled with
 * values that name their origin (group, rank, block, element) and unwritten places keep -1, so
 * one checksum per rank and call checks what arrived where. Rank 0 prints one line per call with
 * the checksums of all ranks (in MPI_COMM_WORLD order). */
#include <mpi.h>
#include <stdio.h>

#include "intercomm_pair.h"

#define MAXN 64
#define TOTAL 6 /* elements each group reduces and scatters: 2 x 3 */
#define BIG 600

static int nb;             /* run the non-blocking forms */
static const char* layout; /* how the groups were made */
static int g, lr, L, R;    /* group (0 or 1), local rank, local and remote size */

/* A checksum of n ints: position-sensitive, -1 (never written) included. */
static long long checksum(const int* b, int n) {
  long long s = 17;
  for (int i = 0; i < n; ++i)
    s = (s * 131 + b[i] + 7) % 1000000007LL;
  return s;
}

static void report(const char* what, int root_group, long long cs) {
  long long all[16];
  MPI_Gather(&cs, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  int p;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p > 16) return;
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) return;
  char line[512];
  int n = snprintf(line, sizeof line, "%s %s %s", layout, nb ? "nonblocking" : "blocking", what);
  if (root_group >= 0) n += snprintf(line + n, sizeof line - n, " root in group %d", root_group);
  n += snprintf(line + n, sizeof line - n, ":");
  for (int i = 0; i < p; ++i)
    n += snprintf(line + n, sizeof line - n, " %lld", all[i]);
  puts(line);
}

static void fill(int* b, int n, int v) {
  for (int i = 0; i < n; ++i)
    b[i] = v;
}

/* Element j of this rank's block k. */
static int val(int k, int j) {
  return (g + 1) * 10000 + lr * 1000 + k * 10 + j;
}

static void wait(MPI_Request* q) {
  MPI_Wait(q, MPI_STATUS_IGNORE);
}

/* One call, blocking or not, on the arguments that follow. */
#define COLL(BLOCKING, NONBLOCKING, ...)                                                           \
  do {                                                                                             \
    if (nb) {                                                                                      \
      MPI_Request q_;                                                                              \
      NONBLOCKING(__VA_ARGS__, &q_);                                                               \
      wait(&q_);                                                                                   \
    } else {                                                                                       \
      BLOCKING(__VA_ARGS__);                                                                       \
    }                                                                                              \
  } while (0)

/* The root argument when the root is rank k of group rg. */
static int root_of(int rg, int k) {
  if (g != rg) return k;
  return lr == k ? MPI_ROOT : MPI_PROC_NULL;
}

/* The last rank of group rg. */
static int last_of(int rg) {
  return (g == rg ? L : R) - 1;
}

static void rooted(MPI_Comm inter, int rg) {
  int s[MAXN], r[MAXN], counts[16], displs[16];
  const int root = root_of(rg, last_of(rg));
  /* Gather: 2 ints from each rank of the other group. */
  for (int j = 0; j < 2; ++j)
    s[j] = val(0, j);
  fill(r, MAXN, -1);
  COLL(MPI_Gather, MPI_Igather, s, 2, MPI_INT, r, 2, MPI_INT, root, inter);
  report("gather", rg, checksum(r, 2 * R + 2));
  /* Gatherv: rank i sends i + 1 ints; blocks land with a gap of one. */
  for (int i = 0, at = 0; i < R; at += i + 2, ++i) {
    counts[i] = i + 1;
    displs[i] = at;
  }
  for (int j = 0; j < lr + 1; ++j)
    s[j] = val(1, j);
  fill(r, MAXN, -1);
  COLL(MPI_Gatherv, MPI_Igatherv, s, lr + 1, MPI_INT, r, counts, displs, MPI_INT, root, inter);
  report("gatherv", rg, checksum(r, 12));
  /* Scatter: 2 ints to each rank of the other group. */
  for (int i = 0; i < 2 * R; ++i)
    s[i] = val(i / 2, i % 2);
  fill(r, MAXN, -1);
  COLL(MPI_Scatter, MPI_Iscatter, s, 2, MPI_INT, r, 2, MPI_INT, root, inter);
  report("scatter", rg, checksum(r, 3));
  /* Scatterv: i + 1 ints to rank i, from gapped places. */
  for (int i = 0; i < MAXN; ++i)
    s[i] = val(i / 8, i % 8);
  fill(r, MAXN, -1);
  COLL(MPI_Scatterv, MPI_Iscatterv, s, counts, displs, MPI_INT, r, lr + 1, MPI_INT, root, inter);
  report("scatterv", rg, checksum(r, 5));
  /* Reduce: the other group's sum of 3 ints. */
  for (int j = 0; j < 3; ++j)
    s[j] = val(2, j);
  fill(r, MAXN, -1);
  COLL(MPI_Reduce, MPI_Ireduce, s, r, 3, MPI_INT, MPI_SUM, root, inter);
  report("reduce", rg, checksum(r, 4));
  /* Bcast: 4 ints from the root. MPICH 4.0.2's MPI_Ibcast on an intercommunicator broadcasts
   * within the receiving group from the root's rank instead of from its leader (wrong data, or
   * an assertion when that rank is out of the group): there it is rooted at rank 0. */
  const int bcast_root = nb ? root_of(rg, 0) : root;
  for (int j = 0; j < 4; ++j)
    r[j] = bcast_root == MPI_ROOT ? val(3, j) : -1;
  COLL(MPI_Bcast, MPI_Ibcast, r, 4, MPI_INT, bcast_root, inter);
  report("bcast", rg, checksum(r, 5));
  /* Gather and scatter of BIG ints a rank: past MPICH's 2048 bytes, its linear algorithms. */
  static int bs[3 * BIG], br[3 * BIG];
  for (int i = 0; i < 3 * BIG; ++i)
    bs[i] = val(i / 100, i % 100);
  fill(br, 3 * BIG, -1);
  COLL(MPI_Gather, MPI_Igather, bs, BIG, MPI_INT, br, BIG, MPI_INT, root, inter);
  report("gather large", rg, checksum(br, 3 * BIG));
  fill(br, 3 * BIG, -1);
  COLL(MPI_Scatter, MPI_Iscatter, bs, BIG, MPI_INT, br, BIG, MPI_INT, root, inter);
  report("scatter large", rg, checksum(br, BIG + 1));
}

static void unrooted(MPI_Comm inter) {
  int s[MAXN], r[MAXN], scounts[16], sdispls[16], rcounts[16], rdispls[16];
  /* Allgather: 2 ints from each rank of the other group. */
  for (int j = 0; j < 2; ++j)
    s[j] = val(4, j);
  fill(r, MAXN, -1);
  COLL(MPI_Allgather, MPI_Iallgather, s, 2, MPI_INT, r, 2, MPI_INT, inter);
  report("allgather", -1, checksum(r, 2 * R + 1));
  /* Allgatherv: i + 1 ints from rank i of the other group, with gaps. */
  for (int i = 0, at = 0; i < R; at += i + 2, ++i) {
    rcounts[i] = i + 1;
    rdispls[i] = at;
  }
  for (int j = 0; j < lr + 1; ++j)
    s[j] = val(5, j);
  fill(r, MAXN, -1);
  COLL(MPI_Allgatherv, MPI_Iallgatherv, s, lr + 1, MPI_INT, r, rcounts, rdispls, MPI_INT, inter);
  report("allgatherv", -1, checksum(r, 12));
  /* Allreduce: the other group's sum of 3 ints. */
  for (int j = 0; j < 3; ++j)
    s[j] = val(6, j);
  fill(r, MAXN, -1);
  COLL(MPI_Allreduce, MPI_Iallreduce, s, r, 3, MPI_INT, MPI_SUM, inter);
  report("allreduce", -1, checksum(r, 4));
  /* Alltoall: block i (2 ints) to rank i of the other group. */
  for (int i = 0; i < 2 * R; ++i)
    s[i] = val(10 + i / 2, i % 2);
  fill(r, MAXN, -1);
  COLL(MPI_Alltoall, MPI_Ialltoall, s, 2, MPI_INT, r, 2, MPI_INT, inter);
  report("alltoall", -1, checksum(r, 2 * R + 1));
  /* Alltoallv: (sender + receiver) % 3 ints between two ranks (some none), gapped. */
  for (int i = 0, sat = 0, rat = 0; i < R; ++i) {
    scounts[i] = rcounts[i] = (lr + i) % 3;
    sdispls[i] = sat;
    rdispls[i] = rat;
    sat += scounts[i] + 1;
    rat += rcounts[i] + 2;
  }
  for (int i = 0; i < MAXN; ++i)
    s[i] = val(20 + i / 4, i % 4);
  fill(r, MAXN, -1);
  COLL(MPI_Alltoallv, MPI_Ialltoallv, s, scounts, sdispls, MPI_INT, r, rcounts, rdispls, MPI_INT,
       inter);
  report("alltoallv", -1, checksum(r, 16));
  /* Alltoallw: the same counts, displacements in bytes, types per rank (pairs as one type). */
  MPI_Datatype pair, stypes[16], rtypes[16];
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  for (int i = 0; i < R; ++i) {
    sdispls[i] *= (int)sizeof(int);
    rdispls[i] *= (int)sizeof(int);
    stypes[i] = MPI_INT;
    rtypes[i] = MPI_INT;
    if (scounts[i] == 2) {
      scounts[i] = 1;
      stypes[i] = pair;
    }
  }
  fill(r, MAXN, -1);
  COLL(MPI_Alltoallw, MPI_Ialltoallw, s, scounts, sdispls, stypes, r, rcounts, rdispls, rtypes,
       inter);
  MPI_Type_free(&pair);
  report("alltoallw", -1, checksum(r, 16));
  /* Reduce_scatter_block: each group reduces 6 ints, scattered over the other in equal parts. */
  for (int j = 0; j < TOTAL; ++j)
    s[j] = val(7, j);
  fill(r, MAXN, -1);
  COLL(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, s, r, TOTAL / L, MPI_INT, MPI_SUM,
       inter);
  report("reduce_scatter_block", -1, checksum(r, TOTAL / L + 1));
  /* Reduce_scatter: the same 6, rank i of the receiving group getting i + 1 (the last the rest). */
  for (int i = 0, left = TOTAL; i < L; ++i) {
    rcounts[i] = i == L - 1 ? left : i + 1;
    left -= rcounts[i];
  }
  for (int j = 0; j < TOTAL; ++j)
    s[j] = val(8, j) * (lr + 1);
  fill(r, MAXN, -1);
  COLL(MPI_Reduce_scatter, MPI_Ireduce_scatter, s, r, rcounts, MPI_INT, MPI_SUM, inter);
  report("reduce_scatter", -1, checksum(r, rcounts[lr] + 1));
  /* Barrier: everyone returns. */
  if (nb) {
    MPI_Request q;
    MPI_Ibarrier(inter, &q);
    wait(&q);
  } else {
    MPI_Barrier(inter);
  }
  report("barrier", -1, 1);
}

/* Two non-blocking collectives in flight at once, completed in the other order. */
static void overlapped(MPI_Comm inter) {
  int s[MAXN], a[MAXN], b[MAXN];
  MPI_Request q[2];
  for (int i = 0; i < 2 * R; ++i)
    s[i] = val(30 + i, 0);
  fill(a, MAXN, -1);
  fill(b, MAXN, -1);
  MPI_Ialltoall(s, 2, MPI_INT, a, 2, MPI_INT, inter, &q[0]);
  MPI_Iallreduce(s, b, 4, MPI_INT, MPI_MAX, inter, &q[1]);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  report("ialltoall with iallreduce", -1, checksum(a, 2 * R) * 7 + checksum(b, 5));
}

static void run(MPI_Comm inter) {
  MPI_Comm_size(inter, &L);
  MPI_Comm_remote_size(inter, &R);
  MPI_Comm_rank(inter, &lr);
  for (nb = 0; nb < 2; ++nb) {
    for (int rg = 0; rg < 2; ++rg)
      rooted(inter, rg);
    unrooted(inter);
  }
  overlapped(inter);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (int interleaved = 0; interleaved < 2 && world_has(5); ++interleaved) {
    /* Contiguous: {0,1} and {2,3,4}; interleaved: {0,2,4} and {1,3}. */
    layout = interleaved ? "interleaved" : "contiguous";
    MPI_Comm local, inter = intercomm_pair(interleaved, 2, &g, &local);
    run(inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  return done();
}
