/* Micro-kernels after the INSEE thesis' synthetic workloads: the communication skeletons of
 * parallel applications, each repeated `iterations` times with messages of `bytes` bytes.
 * Every kernel is written with point-to-point calls (not collectives), as the thesis describes
 * them, and checks what it received. Prints the time of the repetitions (MPI_Wtime) and
 * "verified" when every rank got what it should.
 *
 * usage: microkernels KERNEL [iterations] [bytes]
 *   pingpong   ranks 2i and 2i+1 bounce a message
 *   reduce     binary-tree reduction to rank 0 (child 2r+1 and 2r+2 of r)
 *   bcast      inverse tree: rank 0 broadcasts down the same binary tree
 *   butterfly  log2(P) rounds, partner r ^ 2^s (a power of two of ranks)
 *   halo2d     4 neighbours on a periodic 2-D grid of ranks
 *   halo3d     6 neighbours on a periodic 3-D grid of ranks
 *   wavefront  a sweep from the corner (0, 0) of a 2-D grid of ranks to the opposite one
 *   alltoall   every rank sends to every other rank (P - 1 rounds, partner r + s mod P) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int rank, size, count; /* count: ints per message */
  unsigned *out, *in;    /* unsigned: the reduction's sums wrap, defined */
  long bad;
  int dims[3]; /* the grid of ranks of halo2d, halo3d and wavefront, made once as real codes do */
} Mk;

static void fill(unsigned* b, int n, int from, int it) {
  for (int i = 0; i < n; ++i)
    b[i] = (unsigned)from * 100003u + (unsigned)it * 31u + (unsigned)i;
}

static void expect(Mk* m, int from, int it) {
  for (int i = 0; i < m->count; ++i)
    if (m->in[i] != (unsigned)from * 100003u + (unsigned)it * 31u + (unsigned)i) {
      ++m->bad;
      return;
    }
}

/* Sends to `to` and receives from `from` (either may be MPI_PROC_NULL), checking the data. */
static void exchange(Mk* m, int to, int from, int tag, int it) {
  fill(m->out, m->count, m->rank, it);
  MPI_Sendrecv(m->out, m->count, MPI_UNSIGNED, to, tag, m->in, m->count, MPI_UNSIGNED, from, tag,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (from != MPI_PROC_NULL) expect(m, from, it);
}

static void pingpong(Mk* m, int it) {
  const int peer = m->rank ^ 1;
  if (peer >= m->size) return;
  if (m->rank % 2 == 0) {
    fill(m->out, m->count, m->rank, it);
    MPI_Send(m->out, m->count, MPI_UNSIGNED, peer, 0, MPI_COMM_WORLD);
    MPI_Recv(m->in, m->count, MPI_UNSIGNED, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(m->in, m->count, MPI_UNSIGNED, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    expect(m, peer, it);
    fill(m->out, m->count, m->rank, it);
    MPI_Send(m->out, m->count, MPI_UNSIGNED, peer, 0, MPI_COMM_WORLD);
    return;
  }
  expect(m, peer, it);
}

/* Sum of the ranks below r in the tree, element by element: r's own values plus its children's. */
static void reduce(Mk* m, int it) {
  fill(m->out, m->count, m->rank, it);
  for (int c = 2 * m->rank + 1; c <= 2 * m->rank + 2 && c < m->size; ++c) {
    MPI_Recv(m->in, m->count, MPI_UNSIGNED, c, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < m->count; ++i)
      m->out[i] += m->in[i];
  }
  if (m->rank > 0) {
    MPI_Send(m->out, m->count, MPI_UNSIGNED, (m->rank - 1) / 2, 1, MPI_COMM_WORLD);
    return;
  }
  /* Rank 0: the sum over every rank of fill(rank). */
  const unsigned n = (unsigned)m->size;
  for (int i = 0; i < m->count; ++i)
    if (m->out[i] != 100003u * (n * (n - 1) / 2) + n * ((unsigned)it * 31u + (unsigned)i)) {
      ++m->bad;
      return;
    }
}

static void bcast(Mk* m, int it) {
  if (m->rank == 0)
    fill(m->in, m->count, 0, it);
  else {
    MPI_Recv(m->in, m->count, MPI_UNSIGNED, (m->rank - 1) / 2, 2, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    expect(m, 0, it);
  }
  for (int c = 2 * m->rank + 1; c <= 2 * m->rank + 2 && c < m->size; ++c)
    MPI_Send(m->in, m->count, MPI_UNSIGNED, c, 2, MPI_COMM_WORLD);
}

static void butterfly(Mk* m, int it) {
  for (int s = 1; s < m->size; s <<= 1)
    exchange(m, m->rank ^ s, m->rank ^ s, 3, it);
}

/* The most nearly square (or cubic) grid of ranks, first axis varying fastest. */
static void grid(int size, int nd, int* dims) {
  for (int d = 0; d < nd; ++d)
    dims[d] = 0;
  MPI_Dims_create(size, nd, dims);
}

static void halo(Mk* m, int nd, int it) {
  const int* dims = m->dims;
  int c[3], r = m->rank;
  for (int d = 0; d < nd; ++d) {
    c[d] = r % dims[d];
    r /= dims[d];
  }
  for (int d = 0, stride = 1; d < nd; stride *= dims[d], ++d) {
    const int up = m->rank + (((c[d] + 1) % dims[d]) - c[d]) * stride;
    const int down = m->rank + (((c[d] + dims[d] - 1) % dims[d]) - c[d]) * stride;
    exchange(m, up, down, 10 + 2 * d, it);
    exchange(m, down, up, 11 + 2 * d, it);
  }
}

static void wavefront(Mk* m, int it) {
  const int* dims = m->dims;
  const int x = m->rank % dims[0], y = m->rank / dims[0];
  if (x > 0) {
    MPI_Recv(m->in, m->count, MPI_UNSIGNED, m->rank - 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    expect(m, m->rank - 1, it);
  }
  if (y > 0) {
    MPI_Recv(m->in, m->count, MPI_UNSIGNED, m->rank - dims[0], 4, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    expect(m, m->rank - dims[0], it);
  }
  fill(m->out, m->count, m->rank, it);
  if (x < dims[0] - 1) MPI_Send(m->out, m->count, MPI_UNSIGNED, m->rank + 1, 4, MPI_COMM_WORLD);
  if (y < dims[1] - 1)
    MPI_Send(m->out, m->count, MPI_UNSIGNED, m->rank + dims[0], 4, MPI_COMM_WORLD);
}

static void alltoall(Mk* m, int it) {
  for (int s = 1; s < m->size; ++s)
    exchange(m, (m->rank + s) % m->size, (m->rank - s + m->size) % m->size, 5, it);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Mk m = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m.size);
  const char* k = argc > 1 ? argv[1] : "";
  const int iterations = argc > 2 ? atoi(argv[2]) : 100;
  const int bytes = argc > 3 ? atoi(argv[3]) : 1024;
  m.count = bytes / (int)sizeof(unsigned) > 0 ? bytes / (int)sizeof(unsigned) : 1;
  m.out = malloc(sizeof(unsigned) * m.count);
  m.in = malloc(sizeof(unsigned) * m.count);
  const char* names[] = {"pingpong", "reduce", "bcast",     "butterfly",
                         "halo2d",   "halo3d", "wavefront", "alltoall"};
  int which = -1;
  for (int i = 0; i < 8; ++i)
    if (strcmp(k, names[i]) == 0) which = i;
  if (which < 0 || (which == 3 && (m.size & (m.size - 1)) != 0)) {
    if (m.rank == 0)
      fprintf(stderr, "usage: microkernels pingpong|reduce|bcast|butterfly|halo2d|halo3d|wavefront|"
                      "alltoall [iterations] [bytes] (butterfly: a power of two of ranks)\n");
    MPI_Finalize();
    return 2;
  }
  grid(m.size, which == 5 ? 3 : 2, m.dims);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int it = 0; it < iterations; ++it)
    switch (which) {
    case 0:
      pingpong(&m, it);
      break;
    case 1:
      reduce(&m, it);
      break;
    case 2:
      bcast(&m, it);
      break;
    case 3:
      butterfly(&m, it);
      break;
    case 4:
      halo(&m, 2, it);
      break;
    case 5:
      halo(&m, 3, it);
      break;
    case 6:
      wavefront(&m, it);
      break;
    default:
      alltoall(&m, it);
      break;
    }
  double t = MPI_Wtime() - t0, tmax = 0;
  long bad = 0;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&m.bad, &bad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (m.rank == 0)
    printf("%s: %d ranks, %d iterations of %d bytes: %.6f s, %s\n", k, m.size, iterations, bytes,
           tmax, bad ? "WRONG DATA" : "verified");
  free(m.out);
  free(m.in);
  MPI_Finalize();
  return bad ? 1 : 0;
}
