/* Graph topologies and the neighbourhood collectives on them, as irregular codes (unstructured
 * meshes, sparse solvers) use them:
 * - MPI_Graph_create of a ring with chords (node i: i-1, i+1, i+3 on 6 nodes), then
 *   MPI_Neighbor_allgather and MPI_Neighbor_alltoall in MPI_Graph_neighbors order;
 * - MPI_Dist_graph_create_adjacent with weights: rank r receives from r-1 and r+2, sends to r+1
 *   and r-2; the edges and weights queried back; MPI_Neighbor_allgatherv into gapped
 *   displacements, MPI_Neighbor_alltoallv with displacements in reverse slot order, and
 *   MPI_Neighbor_alltoallw of a double to one neighbour and two ints to the other;
 * - an unweighted star (every rank sends to rank 0; MPI_WEIGHTS_EMPTY where a rank has no
 *   edges), gathered with MPI_Ineighbor_allgather overlapped with compute;
 * - MPI_Dist_graph_create where each rank gives the edges of another rank (rank r those of
 *   source r+1: to r+3 and r+4, rank 0 also those of source 0), weights queried back and data
 *   exchanged with MPI_Neighbor_alltoall; a duplicate keeps the topology.
 * MPI_Dist_graph_create leaves the order of in-edges from several contributors to the
 * implementation: they are printed by source. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int failed = 0, rank, size;

static void check(int ok, const char* what) {
  if (!ok) {
    ++failed;
    printf("dist_graph: rank %d: %s is wrong\n", rank, what);
  }
}

static int mod(int a) {
  return ((a % size) + size) % size;
}

/* Sorts pairs (key, value) by key. */
static void sort_pairs(int n, int* keys, int* values) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && keys[j - 1] > keys[j]; --j) {
      int k = keys[j], v = values[j];
      keys[j] = keys[j - 1], values[j] = values[j - 1];
      keys[j - 1] = k, values[j - 1] = v;
    }
}

static void graph(void) {
  int index[6], edges[18];
  for (int i = 0; i < size; ++i) {
    index[i] = 3 * (i + 1);
    edges[3 * i] = mod(i - 1), edges[3 * i + 1] = mod(i + 1), edges[3 * i + 2] = mod(i + 3);
  }
  MPI_Comm g;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g);
  int nb[3], who[3], out[3], in[3], topo;
  MPI_Topo_test(g, &topo);
  MPI_Graph_neighbors(g, rank, 3, nb);
  int mine = rank * 11;
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, who, 1, MPI_INT, g);
  for (int k = 0; k < 3; ++k)
    out[k] = 100 * rank + k;
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, g);
  for (int k = 0; k < 3; ++k) {
    int slot = 0; /* my slot in neighbour k's list */
    while (edges[3 * nb[k] + slot] != rank)
      ++slot;
    check(who[k] == nb[k] * 11 && in[k] == 100 * nb[k] + slot, "graph collectives");
  }
  check(topo == MPI_GRAPH, "graph topology");
  printf("dist_graph: graph rank %d: allgather %d %d %d, alltoall %d %d %d\n", rank, who[0], who[1],
         who[2], in[0], in[1], in[2]);
  MPI_Comm_free(&g);
}

static void adjacent(void) {
  int sources[2] = {mod(rank - 1), mod(rank + 2)}, dests[2] = {mod(rank + 1), mod(rank - 2)};
  int sw[2] = {10 + sources[0], 20 + sources[1]}, dw[2] = {30 + dests[0], 40 + dests[1]};
  MPI_Comm g;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, sw, 2, dests, dw, MPI_INFO_NULL, 1,
                                 &g);
  int topo, in, out, weighted, s[2], w1[2], d[2], w2[2];
  MPI_Topo_test(g, &topo);
  MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted);
  MPI_Dist_graph_neighbors(g, 2, s, w1, 2, d, w2);
  check(topo == MPI_DIST_GRAPH && in == 2 && out == 2 && weighted, "adjacent counts");
  check(s[0] == sources[0] && s[1] == sources[1] && d[0] == dests[0] && d[1] == dests[1],
        "adjacent neighbours");
  printf("dist_graph: adjacent rank %d: in %d (%d w%d, %d w%d) out %d (%d w%d, %d w%d) "
         "weighted %d\n",
         rank, in, s[0], w1[0], s[1], w1[1], out, d[0], w2[0], d[1], w2[1], weighted);

  /* allgatherv: source i's block of 2 ints lands at displs[i], with a gap between. */
  int mine[2] = {rank, rank * rank}, got[7] = {-1, -1, -1, -1, -1, -1, -1};
  int counts[2] = {2, 2}, displs[2] = {4, 1};
  MPI_Neighbor_allgatherv(mine, 2, MPI_INT, got, counts, displs, MPI_INT, g);
  check(got[4] == s[0] && got[5] == s[0] * s[0] && got[1] == s[1] && got[0] == -1, "allgatherv");
  printf("dist_graph: allgatherv rank %d: %d %d %d %d %d %d %d\n", rank, got[0], got[1], got[2],
         got[3], got[4], got[5], got[6]);

  /* alltoallv: k+1 ints to destination k; slot 1 first in the buffers. */
  int send[3] = {rank * 100 + 10, rank * 100 + 11, rank * 100}, recv[3] = {-1, -1, -1};
  int scounts[2] = {1, 2}, sdispls[2] = {2, 0}, rcounts[2] = {1, 2}, rdispls[2] = {2, 0};
  MPI_Neighbor_alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, g);
  check(recv[2] == s[0] * 100 && recv[0] == s[1] * 100 + 10 && recv[1] == s[1] * 100 + 11,
        "alltoallv");
  printf("dist_graph: alltoallv rank %d: %d %d %d\n", rank, recv[0], recv[1], recv[2]);

  /* alltoallw: a double to destination 0, two ints to destination 1. */
  struct {
    double x;
    int pair[2];
  } sbuf = {rank + 0.5, {rank, -rank}}, rbuf = {-1, {-1, -1}};
  int wcounts[2] = {1, 2};
  MPI_Aint wdispls[2] = {(char*)&sbuf.x - (char*)&sbuf, (char*)sbuf.pair - (char*)&sbuf};
  MPI_Datatype wtypes[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Neighbor_alltoallw(&sbuf, wcounts, wdispls, wtypes, &rbuf, wcounts, wdispls, wtypes, g);
  check(rbuf.x == s[0] + 0.5 && rbuf.pair[0] == s[1] && rbuf.pair[1] == -s[1], "alltoallw");
  printf("dist_graph: alltoallw rank %d: %.1f %d %d\n", rank, rbuf.x, rbuf.pair[0], rbuf.pair[1]);
  MPI_Comm_free(&g);
}

static void star(void) {
  int zero = 0, none_in = 0, none_out = 0, in, out, weighted;
  int* everyone = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i)
    everyone[i] = i;
  MPI_Comm g;
  if (rank == 0)
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, size - 1, everyone + 1, MPI_UNWEIGHTED, none_out,
                                   NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  else
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, none_in, NULL, MPI_UNWEIGHTED, 1, &zero,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted);
  check(in == (rank == 0 ? size - 1 : 0) && out == (rank == 0 ? 0 : 1) && !weighted, "star counts");
  printf("dist_graph: star rank %d: in %d out %d weighted %d\n", rank, in, out, weighted);
  int* got = malloc(sizeof(int) * (size_t)size);
  int mine = rank * 7;
  MPI_Request q;
  MPI_Ineighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, g, &q);
  double work = 0;
  for (int i = 0; i < 100000; ++i)
    work += i * 1e-9;
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  if (rank == 0) {
    int sum = 0;
    for (int i = 0; i < size - 1; ++i) {
      check(got[i] == (i + 1) * 7, "star gather");
      sum += got[i];
    }
    printf("dist_graph: star gathered sum %d (work %s)\n", sum, work > 0 ? "done" : "skipped");
  }
  MPI_Comm_free(&g);
  free(got);
  free(everyone);
}

static void general(void) {
  /* Rank r gives the edges of source r+1 (rank size-1 gives none), rank 0 also those of 0. */
  int sources[2], degrees[2] = {2, 2}, dests[4], weights[4], n = 0;
  int given[2] = {rank + 1, 0};
  for (int i = 0; i < (rank == 0 ? 2 : 1); ++i) {
    const int src = given[i];
    if (src == size) continue;
    sources[n] = src;
    dests[2 * n] = mod(src + 3);
    dests[2 * n + 1] = mod(src + 4);
    weights[2 * n] = src * 10 + dests[2 * n];
    weights[2 * n + 1] = src * 10 + dests[2 * n + 1];
    ++n;
  }
  MPI_Comm g, g2;
  MPI_Dist_graph_create(MPI_COMM_WORLD, n, sources, degrees, dests, n ? weights : MPI_WEIGHTS_EMPTY,
                        MPI_INFO_NULL, 0, &g);
  int in, out, weighted, s[2], sw[2], d[2], dw[2];
  MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted);
  MPI_Dist_graph_neighbors(g, 2, s, sw, 2, d, dw);
  /* One contributor gave my out-edges, in its order; in-edges come from two. */
  check(in == 2 && out == 2 && weighted, "general counts");
  check(d[0] == mod(rank + 3) && d[1] == mod(rank + 4), "general destinations");
  sort_pairs(2, s, sw);
  printf("dist_graph: general rank %d: in %d w%d, %d w%d; out %d w%d, %d w%d\n", rank, s[0], sw[0],
         s[1], sw[1], d[0], dw[0], d[1], dw[1]);

  MPI_Comm_dup(g, &g2);
  int topo, in2, out2, weighted2;
  MPI_Topo_test(g2, &topo);
  MPI_Dist_graph_neighbors_count(g2, &in2, &out2, &weighted2);
  check(topo == MPI_DIST_GRAPH && in2 == in && out2 == out && weighted2 == weighted,
        "the duplicate's topology");
  int send[2] = {1000 * rank + d[0], 1000 * rank + d[1]}, recv[2] = {-1, -1}, from[2];
  MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, g2);
  MPI_Dist_graph_neighbors(g2, 2, from, MPI_UNWEIGHTED, 2, d, MPI_UNWEIGHTED);
  for (int i = 0; i < 2; ++i)
    check(recv[i] == 1000 * from[i] + rank, "general alltoall");
  sort_pairs(2, from, recv);
  printf("dist_graph: general alltoall rank %d: from %d %d, from %d %d\n", rank, from[0], recv[0],
         from[1], recv[1]);
  MPI_Comm_free(&g2);
  MPI_Comm_free(&g);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 6) graph();
  adjacent();
  star();
  general();
  int all_failed;
  MPI_Reduce(&failed, &all_failed, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("dist_graph: %d ranks, %d failed checks\n", size, all_failed);
  MPI_Finalize();
  return 0;
}
