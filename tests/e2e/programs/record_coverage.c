/* The calls MPISIM_RECORD records since record format 3, one pattern each, as real codes use
 * them: a 2-D halo on a Cartesian communicator (MPI_Cart_create, MPI_Cart_shift, MPI_Cart_sub),
 * graph topologies, persistent requests, communicators made from groups with MPI_Reduce_scatter
 * and MPI_Alltoallw, non-blocking collectives, buffered sends, matched probes and MPI_Cancel;
 * since format 4, persistent collectives, MPI_Isendrecv, MPI_Comm_idup, partitioned
 * communication and intercommunicators; the padded pair types of MPI_MAXLOC. Each
 * rank computes (declared with MPISIM_Compute, so that --cpu off has time to replay) between its
 * calls, by rank, so that messages wait on one another. Usage: record_coverage PATTERN [STEPS]. */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, steps = 4;

enum { BIG = 1 << 15 };         /* a buffered send above the eager limit */
enum { PARTS = 8, PART = 256 }; /* partitions of partitioned communication, elements in each */

struct pattern {
  const char* name;
  void (*run)(void);
};

static void work(int i) {
  MPISIM_Compute(1e-6 * (1 + (rank * 7 + i * 3) % 5));
}

/* Halo exchange on a periodic 2-D grid: a Sendrecv per direction, then the same with
 * Isend/Irecv and Waitall, and a residual agreed along rows and over the grid. */
static void cart_halo(void) {
  int dims[2] = {0, 0}, periods[2] = {1, 0}, keep_row[2] = {0, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid, row;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &grid);
  MPI_Cart_sub(grid, keep_row, &row);
  double halo[4][64] = {{0}}, residual = 0, row_sum = 0;
  for (int s = 0; s < steps; ++s) {
    work(s);
    for (int d = 0; d < 2; ++d) {
      int down, up;
      MPI_Cart_shift(grid, d, 1, &down, &up);
      MPI_Sendrecv(halo[0], 64, MPI_DOUBLE, up, d, halo[1], 64, MPI_DOUBLE, down, d, grid,
                   MPI_STATUS_IGNORE);
      MPI_Request q[2];
      MPI_Irecv(halo[2], 32, MPI_DOUBLE, up, 10 + d, grid, &q[0]);
      MPI_Isend(halo[3], 32, MPI_DOUBLE, down, 10 + d, grid, &q[1]);
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    }
    residual = rank + s;
    MPI_Allreduce(MPI_IN_PLACE, &residual, 1, MPI_DOUBLE, MPI_SUM, grid);
    MPI_Allreduce(&residual, &row_sum, 1, MPI_DOUBLE, MPI_MAX, row);
  }
  if (rank == 0) printf("cart_halo: residual %g\n", residual);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);
}

/* A ring as a graph, the same ring as distributed graphs (adjacent and not): each rank sends
 * to its neighbours on each. */
static void topologies(void) {
  int* index = malloc(sizeof(int) * size);
  int* edges = malloc(sizeof(int) * 2 * size);
  for (int i = 0; i < size; ++i) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = (i + size - 1) % size;
    edges[2 * i + 1] = (i + 1) % size;
  }
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int nbrs[2] = {prev, next}, degree = 2;
  MPI_Comm graph, adjacent, dist;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph);
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nbrs, MPI_UNWEIGHTED, 2, nbrs, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &adjacent);
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &degree, nbrs, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                        &dist);
  MPI_Comm comms[3] = {graph, adjacent, dist};
  int buf[8] = {0};
  for (int s = 0; s < steps; ++s)
    for (int k = 0; k < 3; ++k) {
      work(s + k);
      int got[2];
      if (k == 0) {
        MPI_Graph_neighbors(graph, rank, 2, got);
      } else {
        int w[2];
        MPI_Dist_graph_neighbors(comms[k], 2, got, w, 2, got, w);
      }
      MPI_Sendrecv(buf, 4, MPI_INT, got[1], s, buf + 4, 4, MPI_INT, got[0], s, comms[k],
                   MPI_STATUS_IGNORE);
    }
  if (rank == 0) printf("topologies: done\n");
  for (int k = 0; k < 3; ++k)
    MPI_Comm_free(&comms[k]);
  free(index);
  free(edges);
}

/* A ring of persistent sends and receives (standard, synchronous and buffered), started with
 * MPI_Startall and MPI_Start, one receive from MPI_ANY_SOURCE; freed with MPI_Request_free. */
static void persistent(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  static double a[512], b[512], c[8], d[8], e[4096], f[4096];
  int attached = 6 * (4096 * 8 + MPI_BSEND_OVERHEAD);
  void* space = malloc(attached);
  MPI_Buffer_attach(space, attached);
  MPI_Request q[6];
  MPI_Send_init(a, 512, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Recv_init(b, 512, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &q[1]);
  MPI_Ssend_init(c, 8, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &q[2]);
  MPI_Recv_init(d, 8, MPI_DOUBLE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &q[3]);
  MPI_Bsend_init(e, 4096, MPI_DOUBLE, next, 3, MPI_COMM_WORLD, &q[4]);
  MPI_Recv_init(f, 4096, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD, &q[5]);
  for (int s = 0; s < steps; ++s) {
    work(s);
    MPI_Startall(4, q);
    MPI_Start(&q[5]);
    MPI_Start(&q[4]);
    work(s + 1);
    MPI_Waitall(6, q, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < 6; ++i)
    MPI_Request_free(&q[i]);
  int size_back;
  MPI_Buffer_detach(&space, &size_back);
  free(space);
  if (rank == 0) printf("persistent: done\n");
}

/* Communicators of groups: the even ranks (MPI_Comm_create), the first half
 * (MPI_Comm_create_group), the node (MPI_Comm_split_type); MPI_Reduce_scatter and
 * MPI_Alltoallw with a type per rank. */
static void groups(void) {
  MPI_Group world, evens, half;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, range, &evens);
  int first[1][3] = {{0, size / 2 - 1, 1}};
  MPI_Group_range_incl(world, 1, first, &half);
  MPI_Comm even_comm, half_comm = MPI_COMM_NULL, node;
  MPI_Comm_create(MPI_COMM_WORLD, evens, &even_comm);
  if (rank < size / 2) MPI_Comm_create_group(MPI_COMM_WORLD, half, 7, &half_comm);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int* counts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * size);
  double* in = calloc(64 * size, sizeof(double));
  double* out = calloc(64 * size, sizeof(double));
  for (int i = 0; i < size; ++i) {
    /* Rank r sends rank i what i expects from r: both depend on r + i only. */
    counts[i] = 1 + (i + rank) % 3;
    displs[i] = 64 * 8 * i;
    types[i] = (i + rank) % 2 ? MPI_DOUBLE : MPI_INT;
  }
  for (int s = 0; s < steps; ++s) {
    work(s);
    if (even_comm != MPI_COMM_NULL) MPI_Barrier(even_comm);
    if (half_comm != MPI_COMM_NULL)
      MPI_Allreduce(MPI_IN_PLACE, in, 8, MPI_DOUBLE, MPI_SUM, half_comm);
    MPI_Allreduce(MPI_IN_PLACE, in, 4, MPI_DOUBLE, MPI_SUM, node);
    int* same = malloc(sizeof(int) * size);
    for (int i = 0; i < size; ++i)
      same[i] = 1 + i % 4;
    MPI_Reduce_scatter(in, out, same, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    free(same);
    MPI_Alltoallw(in, counts, displs, types, out, counts, displs, types, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("groups: done\n");
  if (even_comm != MPI_COMM_NULL) MPI_Comm_free(&even_comm);
  if (half_comm != MPI_COMM_NULL) MPI_Comm_free(&half_comm);
  MPI_Comm_free(&node);
  MPI_Group_free(&evens);
  MPI_Group_free(&half);
  MPI_Group_free(&world);
  free(counts);
  free(displs);
  free(types);
  free(in);
  free(out);
}

/* The arguments of collectives with a block of N doubles per rank: the input `a`, the output
 * `b` of `calls` collectives, and per rank the counts, displacements (in elements and in bytes)
 * and types. */
enum { N = 16 };
struct blocks {
  double *a, *b;
  int *counts, *displs, *bytes;
  MPI_Datatype* types;
};

static struct blocks blocks(int calls) {
  struct blocks k = {calloc(N * size, sizeof(double)), calloc(N * size * calls, sizeof(double)),
                     malloc(sizeof(int) * size),       malloc(sizeof(int) * size),
                     malloc(sizeof(int) * size),       malloc(sizeof(MPI_Datatype) * size)};
  for (int i = 0; i < size; ++i) {
    k.counts[i] = N;
    k.displs[i] = N * i;
    k.bytes[i] = N * 8 * i;
    k.types[i] = MPI_DOUBLE;
  }
  return k;
}

static void free_blocks(struct blocks* k) {
  free(k->a);
  free(k->b);
  free(k->counts);
  free(k->displs);
  free(k->bytes);
  free(k->types);
}

/* Every non-blocking collective, all outstanding at once (each into its own part of the
 * output), overlapped with compute and completed together. */
static void nonblocking(void) {
  enum { CALLS = 17 };
  struct blocks k = blocks(CALLS);
  double *a = k.a, *b = k.b;
  int *counts = k.counts, *displs = k.displs, *bytes = k.bytes;
  MPI_Datatype* types = k.types;
  const MPI_Comm w = MPI_COMM_WORLD;
  for (int s = 0; s < steps; ++s) {
    MPI_Request q[CALLS];
#define OUT(k) (b + N * size * (k))
    MPI_Ibarrier(w, &q[0]);
    MPI_Ibcast(OUT(1), N, MPI_DOUBLE, s % size, w, &q[1]);
    work(s);
    MPI_Ireduce(a, OUT(2), N, MPI_DOUBLE, MPI_SUM, 0, w, &q[2]);
    MPI_Iallreduce(a, OUT(3), N, MPI_DOUBLE, MPI_MAX, w, &q[3]);
    MPI_Iscan(a, OUT(4), N, MPI_DOUBLE, MPI_SUM, w, &q[4]);
    MPI_Iexscan(a, OUT(5), N, MPI_DOUBLE, MPI_SUM, w, &q[5]);
    MPI_Igather(a, N, MPI_DOUBLE, OUT(6), N, MPI_DOUBLE, 0, w, &q[6]);
    MPI_Igatherv(a, N, MPI_DOUBLE, OUT(7), counts, displs, MPI_DOUBLE, 1 % size, w, &q[7]);
    MPI_Iscatter(a, N, MPI_DOUBLE, OUT(8), N, MPI_DOUBLE, 0, w, &q[8]);
    MPI_Iscatterv(a, counts, displs, MPI_DOUBLE, OUT(9), N, MPI_DOUBLE, 0, w, &q[9]);
    work(s + 1);
    MPI_Iallgather(a, N, MPI_DOUBLE, OUT(10), N, MPI_DOUBLE, w, &q[10]);
    MPI_Iallgatherv(a, N, MPI_DOUBLE, OUT(11), counts, displs, MPI_DOUBLE, w, &q[11]);
    MPI_Ialltoall(a, N, MPI_DOUBLE, OUT(12), N, MPI_DOUBLE, w, &q[12]);
    MPI_Ialltoallv(a, counts, displs, MPI_DOUBLE, OUT(13), counts, displs, MPI_DOUBLE, w, &q[13]);
    MPI_Ialltoallw(a, counts, bytes, types, OUT(14), counts, bytes, types, w, &q[14]);
    MPI_Ireduce_scatter_block(a, OUT(15), N, MPI_DOUBLE, MPI_SUM, w, &q[15]);
    MPI_Ireduce_scatter(a, OUT(16), counts, MPI_DOUBLE, MPI_SUM, w, &q[16]);
#undef OUT
    work(s + 2);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    MPI_Waitall(CALLS - 1, q + 1, MPI_STATUSES_IGNORE);
  }
  if (rank == 0) printf("nonblocking: done\n");
  free_blocks(&k);
}

/* Buffered sends, small and above the eager limit, blocking and not, around a ring; the buffer
 * is detached (which waits for them) at the end. */
static void buffered(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  static char small[64], big[BIG], in[BIG];
  int attached = 6 * (BIG + MPI_BSEND_OVERHEAD);
  void* space = malloc(attached);
  MPI_Buffer_attach(space, attached);
  for (int s = 0; s < steps; ++s) {
    work(s);
    MPI_Request q;
    MPI_Bsend(small, 64, MPI_CHAR, next, 1, MPI_COMM_WORLD);
    MPI_Ibsend(big, BIG, MPI_CHAR, next, 2, MPI_COMM_WORLD, &q);
    MPI_Recv(in, 64, MPI_CHAR, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int flag;
    MPI_Request_get_status(q, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(in, BIG, MPI_CHAR, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  int size_back;
  MPI_Buffer_detach(&space, &size_back);
  free(space);
  if (rank == 0) printf("buffered: done\n");
}

/* Matched probes around a ring: MPI_Mprobe from MPI_ANY_SOURCE then MPI_Mrecv of the size it
 * found, MPI_Improbe then MPI_Imrecv, and a receive that no one sends to, cancelled. */
static void probes(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  static char out[4096], in[4096];
  for (int s = 0; s < steps; ++s) {
    work(s);
    MPI_Message m;
    MPI_Status st;
    int n, flag = 0;
    MPI_Send(out, 100 + s, MPI_CHAR, next, 1, MPI_COMM_WORLD);
    MPI_Mprobe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &m, &st);
    MPI_Get_count(&st, MPI_CHAR, &n);
    MPI_Mrecv(in, n, MPI_CHAR, &m, MPI_STATUS_IGNORE);
    MPI_Request q, r;
    MPI_Isend(out, 2000, MPI_CHAR, prev, 2, MPI_COMM_WORLD, &q);
    /* Probed first, so that MPI_Improbe finds it: a poll until it does would make the
     * prediction depend on the count of host processes, live as replayed. */
    MPI_Probe(next, 2, MPI_COMM_WORLD, &st);
    MPI_Improbe(next, 2, MPI_COMM_WORLD, &flag, &m, &st);
    MPI_Imrecv(in, 2000, MPI_CHAR, &m, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Irecv(in, 1, MPI_CHAR, prev, 99, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    if (!flag) printf("probes: rank %d: the receive was not cancelled\n", rank);
  }
  if (rank == 0) printf("probes: done\n");
}

/* Every persistent collective, made once and started at every step (MPI_Startall for most,
 * MPI_Start for the barrier), overlapped with compute, completed together and freed at the end;
 * the neighbourhood ones on a periodic 2-D grid. */
static void persistent_collectives(void) {
  enum { CALLS = 22 };
  struct blocks k = blocks(CALLS);
  double *a = k.a, *b = k.b;
  int *counts = k.counts, *displs = k.displs, *bytes = k.bytes;
  MPI_Datatype* types = k.types;
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int ncounts[4] = {N, N, N, N}, ndispls[4] = {0, N, 2 * N, 3 * N};
  MPI_Aint nbytes[4] = {0, N * 8, 2 * N * 8, 3 * N * 8};
  MPI_Datatype ntypes[4] = {MPI_DOUBLE, MPI_DOUBLE, MPI_DOUBLE, MPI_DOUBLE};
  const MPI_Comm w = MPI_COMM_WORLD;
  const MPI_Info i = MPI_INFO_NULL;
  MPI_Request q[CALLS];
#define OUT(k) (b + N * size * (k))
  MPI_Bcast_init(OUT(0), N, MPI_DOUBLE, 1 % size, w, i, &q[0]);
  MPI_Reduce_init(a, OUT(1), N, MPI_DOUBLE, MPI_SUM, 0, w, i, &q[1]);
  MPI_Allreduce_init(a, OUT(2), N, MPI_DOUBLE, MPI_MAX, w, i, &q[2]);
  MPI_Scan_init(a, OUT(3), N, MPI_DOUBLE, MPI_SUM, w, i, &q[3]);
  MPI_Exscan_init(a, OUT(4), N, MPI_DOUBLE, MPI_SUM, w, i, &q[4]);
  MPI_Gather_init(a, N, MPI_DOUBLE, OUT(5), N, MPI_DOUBLE, 0, w, i, &q[5]);
  MPI_Gatherv_init(a, N, MPI_DOUBLE, OUT(6), counts, displs, MPI_DOUBLE, 1 % size, w, i, &q[6]);
  MPI_Scatter_init(a, N, MPI_DOUBLE, OUT(7), N, MPI_DOUBLE, 0, w, i, &q[7]);
  MPI_Scatterv_init(a, counts, displs, MPI_DOUBLE, OUT(8), N, MPI_DOUBLE, 0, w, i, &q[8]);
  MPI_Allgather_init(a, N, MPI_DOUBLE, OUT(9), N, MPI_DOUBLE, w, i, &q[9]);
  MPI_Allgatherv_init(a, N, MPI_DOUBLE, OUT(10), counts, displs, MPI_DOUBLE, w, i, &q[10]);
  MPI_Alltoall_init(a, N, MPI_DOUBLE, OUT(11), N, MPI_DOUBLE, w, i, &q[11]);
  MPI_Alltoallv_init(a, counts, displs, MPI_DOUBLE, OUT(12), counts, displs, MPI_DOUBLE, w, i,
                     &q[12]);
  MPI_Alltoallw_init(a, counts, bytes, types, OUT(13), counts, bytes, types, w, i, &q[13]);
  MPI_Reduce_scatter_block_init(a, OUT(14), N, MPI_DOUBLE, MPI_SUM, w, i, &q[14]);
  MPI_Reduce_scatter_init(a, OUT(15), counts, MPI_DOUBLE, MPI_SUM, w, i, &q[15]);
  MPI_Neighbor_allgather_init(a, N, MPI_DOUBLE, OUT(16), N, MPI_DOUBLE, grid, i, &q[16]);
  MPI_Neighbor_allgatherv_init(a, N, MPI_DOUBLE, OUT(17), ncounts, ndispls, MPI_DOUBLE, grid, i,
                               &q[17]);
  MPI_Neighbor_alltoall_init(a, N, MPI_DOUBLE, OUT(18), N, MPI_DOUBLE, grid, i, &q[18]);
  MPI_Neighbor_alltoallv_init(a, ncounts, ndispls, MPI_DOUBLE, OUT(19), ncounts, ndispls,
                              MPI_DOUBLE, grid, i, &q[19]);
  MPI_Neighbor_alltoallw_init(a, ncounts, nbytes, ntypes, OUT(20), ncounts, nbytes, ntypes, grid, i,
                              &q[20]);
  MPI_Barrier_init(w, i, &q[21]);
#undef OUT
  for (int s = 0; s < steps; ++s) {
    work(s);
    MPI_Startall(CALLS - 1, q);
    work(s + 1);
    MPI_Start(&q[CALLS - 1]);
    work(s + 2);
    MPI_Waitall(CALLS, q, MPI_STATUSES_IGNORE);
  }
  for (int c = 0; c < CALLS; ++c)
    MPI_Request_free(&q[c]);
  if (rank == 0) printf("persistent_collectives: done\n");
  MPI_Comm_free(&grid);
  free_blocks(&k);
}

/* MPI_Isendrecv and MPI_Isendrecv_replace around a ring in both directions, overlapped with
 * compute; one receive from MPI_ANY_SOURCE that only the previous rank can match. */
static void isendrecv(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  static double out[2048], in[2048], both[512];
  for (int s = 0; s < steps; ++s) {
    work(s);
    MPI_Request q[3];
    MPI_Isendrecv(out, 2048, MPI_DOUBLE, next, 1, in, 2048, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD,
                  &q[0]);
    MPI_Isendrecv_replace(both, 512, MPI_DOUBLE, prev, 2, next, 2, MPI_COMM_WORLD, &q[1]);
    MPI_Isendrecv(out, 8, MPI_DOUBLE, next, 3, in + 8, 8, MPI_DOUBLE, MPI_ANY_SOURCE, 3,
                  MPI_COMM_WORLD, &q[2]);
    work(s + 1);
    MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
  }
  if (rank == 0) printf("isendrecv: done\n");
}

/* Communicators duplicated without waiting (MPI_Comm_idup, with and without info) and with
 * info, each used for a reduction and a ring exchange once the duplication completed. */
static void idup(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Comm dups[3];
  MPI_Request q[2];
  MPI_Comm_idup(MPI_COMM_WORLD, &dups[0], &q[0]);
  work(0);
  MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dups[1], &q[1]);
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dups[2]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  double x = rank, y[64] = {0}, z[64] = {0};
  for (int s = 0; s < steps; ++s)
    for (int k = 0; k < 3; ++k) {
      work(s + k);
      MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, dups[k]);
      MPI_Sendrecv(y, 64, MPI_DOUBLE, next, k, z, 64, MPI_DOUBLE, prev, k, dups[k],
                   MPI_STATUS_IGNORE);
    }
  for (int k = 0; k < 3; ++k)
    MPI_Comm_free(&dups[k]);
  if (rank == 0) printf("idup: done\n");
}

/* Partitioned sends and receives around a ring: each step marks the partitions ready one by
 * one (MPI_Pready), by range and by list, with compute between, and asks once whether the
 * first partition arrived. */
static void partitioned(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  static double out[PARTS * PART], in[PARTS * PART];
  MPI_Request q[2];
  MPI_Psend_init(out, PARTS, PART, MPI_DOUBLE, next, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]);
  MPI_Precv_init(in, PARTS, PART, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]);
  int list[3] = {7, 5, 6};
  for (int s = 0; s < steps; ++s) {
    MPI_Startall(2, q);
    work(s);
    MPI_Pready(0, q[0]);
    MPI_Pready(1, q[0]);
    work(s + 1);
    MPI_Pready_range(2, 4, q[0]);
    int arrived;
    MPI_Parrived(q[1], 0, &arrived);
    work(s + 2);
    MPI_Pready_list(3, list, q[0]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&q[0]);
  MPI_Request_free(&q[1]);
  if (rank == 0) printf("partitioned: done\n");
}

/* Two groups (the first 3 ranks and the others, 1 to 8) joined by an intercommunicator:
 * pairs exchange across it, collectives run on it (rooted ones from either side, counts per rank
 * of the remote group, non-blocking and persistent ones too), then it is duplicated and merged
 * into an intracommunicator. */
static void intercomm(void) {
  enum { K = 4 };
  const int low = rank < 3;
  MPI_Comm half, inter, dup, merged;
  MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
  int me, theirs;
  MPI_Comm_rank(half, &me);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? 3 : 0, 9, &inter);
  MPI_Comm_remote_size(inter, &theirs);
  const int ours = size - theirs, pairs = theirs < ours ? theirs : ours;
  double x[K * 8] = {0}, y[K * 8] = {0};
  int counts[8], displs[8], scattered[8];
  for (int i = 0; i < ours; ++i)
    scattered[i] = 24 / ours + (i < 24 % ours);
  for (int i = 0; i < theirs; ++i) {
    counts[i] = (low ? 2 : 1) + i % 2; /* what rank i of the other group sends this one */
    displs[i] = K * i;
  }
  /* The rooted ones: the first group's rank 0 broadcasts and reduces, the last rank of the
   * second group gathers. */
  const int last = size - 4;
  const int root_low = low ? (me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  const int root_high = low ? last : (me == last ? MPI_ROOT : MPI_PROC_NULL);
  MPI_Request q[3];
  MPI_Allreduce_init(x, y, K, MPI_DOUBLE, MPI_SUM, inter, MPI_INFO_NULL, &q[2]);
  for (int s = 0; s < steps; ++s) {
    work(s);
    if (me < pairs)
      MPI_Sendrecv(x, K, MPI_DOUBLE, me, s, y, K, MPI_DOUBLE, me, s, inter, MPI_STATUS_IGNORE);
    MPI_Bcast(x, K, MPI_DOUBLE, root_low, inter);
    MPI_Reduce(x, y, K, MPI_DOUBLE, MPI_SUM, root_low, inter);
    MPI_Allreduce(x, y, K, MPI_DOUBLE, MPI_MAX, inter);
    MPI_Allgather(x, K, MPI_DOUBLE, y, K, MPI_DOUBLE, inter);
    /* Rank r sends rank i of the other group (1 or 2) + i % 2 elements from the first group,
     * (2 or 1) + r % 2 from the second: the counts each side expects. */
    const int mine = (low ? 1 : 2) + me % 2;
    MPI_Allgatherv(x, mine, MPI_DOUBLE, y, counts, displs, MPI_DOUBLE, inter);
    MPI_Gatherv(x, mine, MPI_DOUBLE, y, counts, displs, MPI_DOUBLE, root_high, inter);
    MPI_Alltoall(x, 2, MPI_DOUBLE, y, 2, MPI_DOUBLE, inter);
    /* Each group's reduction, of 24 elements, scattered over the other: a count per rank of
     * the group that receives. */
    MPI_Reduce_scatter(x, y, scattered, MPI_DOUBLE, MPI_SUM, inter);
    work(s + 1);
    MPI_Ibarrier(inter, &q[0]);
    MPI_Iallreduce(x, y + K, K, MPI_DOUBLE, MPI_MIN, inter, &q[1]);
    MPI_Start(&q[2]);
    MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    MPI_Barrier(inter);
  }
  MPI_Request_free(&q[2]);
  MPI_Comm_dup(inter, &dup);
  if (me < pairs)
    MPI_Sendrecv(x, K, MPI_DOUBLE, me, 1, y, K, MPI_DOUBLE, me, 1, dup, MPI_STATUS_IGNORE);
  MPI_Intercomm_merge(inter, !low, &merged);
  work(1);
  MPI_Allreduce(MPI_IN_PLACE, x, K, MPI_DOUBLE, MPI_SUM, merged);
  if (rank == 0) printf("intercomm: done\n");
  MPI_Comm_free(&merged);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

/* The padded pair types of MPI_MINLOC and MPI_MAXLOC (MPI_DOUBLE_INT: 12 bytes of data, 16 of
 * extent; MPI_LONG_DOUBLE_INT), as an argmax over ranks, in point-to-point, a gather, an
 * all-to-all and a scan, blocking and not: replay's buffers hold them by their extent. */
static void pair_types(void) {
  enum { N = 4 };
  struct {
    double value;
    int index;
  } mine[N], best[N], ring[N], all[32 * N], spread[32];
  struct {
    long double value;
    int index;
  } wide[N], widest[N];
  for (int i = 0; i < N; ++i) {
    mine[i].value = (rank * 13 + i * 7) % 11;
    mine[i].index = rank;
    wide[i].value = mine[i].value;
    wide[i].index = rank;
  }
  for (int s = 0; s < steps; ++s) {
    work(s);
    MPI_Allreduce(mine, best, N, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Request q[2];
    MPI_Irecv(ring, N, MPI_DOUBLE_INT, (rank + size - 1) % size, s, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(mine, N, MPI_DOUBLE_INT, (rank + 1) % size, s, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    if (size <= 32) {
      MPI_Gather(mine, N, MPI_DOUBLE_INT, all, N, MPI_DOUBLE_INT, 0, MPI_COMM_WORLD);
      MPI_Alltoall(all, 1, MPI_DOUBLE_INT, spread, 1, MPI_DOUBLE_INT, MPI_COMM_WORLD);
    }
    MPI_Request r;
    MPI_Iscan(wide, widest, N, MPI_LONG_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  if (rank == 0) printf("pair_types: max %g at rank %d\n", best[0].value, best[0].index);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* pattern = argc > 1 ? argv[1] : "";
  if (argc > 2) steps = atoi(argv[2]);
  static const struct pattern patterns[] = {
      {"cart_halo", cart_halo},     {"topologies", topologies},
      {"persistent", persistent},   {"groups", groups},
      {"nonblocking", nonblocking}, {"buffered", buffered},
      {"probes", probes},           {"persistent_collectives", persistent_collectives},
      {"isendrecv", isendrecv},     {"idup", idup},
      {"partitioned", partitioned}, {"intercomm", intercomm},
      {"pair_types", pair_types}};
  int found = 0;
  for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; ++i)
    if (strcmp(pattern, patterns[i].name) == 0) {
      patterns[i].run();
      found = 1;
    }
  if (!found && rank == 0)
    fprintf(stderr,
            "record_coverage: unknown pattern '%s' (cart_halo, topologies, persistent, "
            "groups, nonblocking, buffered, probes, persistent_collectives, isendrecv, idup, "
            "partitioned, intercomm, pair_types)\n",
            pattern);
  MPI_Finalize();
  return found ? 0 : 2;
}
