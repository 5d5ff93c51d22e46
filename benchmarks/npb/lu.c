/* LU-style SSOR wavefront, after the communication pattern of NPB's LU: symmetric successive
 * over-relaxation (a Gauss-Seidel sweep up, then one down, relaxed by omega = 1.2) for the 7-point
 * Poisson equation on an N^3 grid with zero boundary. The x-y plane is split over a 2-D grid of
 * ranks; each sweep is a pipeline over the z-planes: a rank waits for the new plane edge from its
 * west and south neighbours (east and north on the way down), updates its part of the plane and
 * passes its own edges on, as NPB's LU does with its many small messages. NPB's own LU problem
 * (the 5x5 block system of the Navier-Stokes equations) is not reproduced, so there are no
 * official values: rank 0 repeats the computation alone (the same code on MPI_COMM_SELF) and the
 * results must agree.
 *
 * Sizes and iterations are those of NPB's LU classes: S 12^3 x 50, W 33^3 x 300, A 64^3 x 250.
 *
 * usage: lu [S|W|A] [any]
 *   any: the pipeline and halo messages are received from MPI_ANY_SOURCE, each direction with its
 *   own tag (the paper's "determinism of the second kind"). */
#include "npb.h"

typedef struct {
  MPI_Comm comm;
  int any;
  int n;              /* grid points per axis (interior) */
  int nx, ny, x0, y0; /* this rank's block of the x-y plane */
  int west, east, south, north;
  double *u, *f, *col, *row; /* col, row: plane edges in transit */
} Lu;

enum { TAG_FROM_WEST = 1, TAG_FROM_SOUTH, TAG_FROM_EAST, TAG_FROM_NORTH, TAG_HALO = 10 };

static long at(const Lu* s, int i, int j, int k) {
  return i + (long)(s->nx + 2) * (j + (long)(s->ny + 2) * k);
}

static void recv_from(Lu* s, double* buf, int count, int src, int tag) {
  if (src == MPI_PROC_NULL) return;
  MPI_Recv(buf, count, MPI_DOUBLE, s->any ? MPI_ANY_SOURCE : src, tag, s->comm, MPI_STATUS_IGNORE);
}

/* Column i (all j of the block) or row j (all i) of plane k, to or from the edge buffers. */
static void column(Lu* s, int i, int k, int to_buf) {
  for (int j = 1; j <= s->ny; ++j)
    if (to_buf)
      s->col[j - 1] = s->u[at(s, i, j, k)];
    else
      s->u[at(s, i, j, k)] = s->col[j - 1];
}

static void row(Lu* s, int j, int k, int to_buf) {
  for (int i = 1; i <= s->nx; ++i)
    if (to_buf)
      s->row[i - 1] = s->u[at(s, i, j, k)];
    else
      s->u[at(s, i, j, k)] = s->row[i - 1];
}

static void relax(Lu* s, int i, int j, int k) {
  const double omega = 1.2;
  const long x = at(s, i, j, k), sj = s->nx + 2, sk = sj * (s->ny + 2);
  const double nb =
      s->u[x - 1] + s->u[x + 1] + s->u[x - sj] + s->u[x + sj] + s->u[x - sk] + s->u[x + sk];
  s->u[x] = (1.0 - omega) * s->u[x] + omega * (s->f[x] + nb) / 6.0;
}

/* Exchanges whole faces with the four neighbours: the values the coming sweep reads as old. */
static void halo(Lu* s) {
  const int faces_x = s->ny * s->n, faces_y = s->nx * s->n;
  double* buf = malloc(sizeof(double) * 4 * (faces_x > faces_y ? faces_x : faces_y));
  double *out = buf, *in = buf + 2 * (faces_x > faces_y ? faces_x : faces_y);
  const int nbr[4] = {s->west, s->east, s->south, s->north};
  for (int d = 0; d < 4; ++d) {
    /* Round d: every rank sends its side-d face to its side-d neighbour with tag TAG_HALO + d,
     * so that tag comes from one source only: the neighbour on the other side. */
    const int cnt = d < 2 ? faces_x : faces_y;
    long q = 0;
    for (int k = 1; k <= s->n; ++k)
      if (d < 2) {
        for (int j = 1; j <= s->ny; ++j)
          out[q++] = s->u[at(s, d == 0 ? 1 : s->nx, j, k)];
      } else {
        for (int i = 1; i <= s->nx; ++i)
          out[q++] = s->u[at(s, i, d == 2 ? 1 : s->ny, k)];
      }
    MPI_Request rq[2];
    const int src = nbr[d ^ 1];
    MPI_Irecv(in, cnt, MPI_DOUBLE, s->any && src != MPI_PROC_NULL ? MPI_ANY_SOURCE : src,
              TAG_HALO + d, s->comm, &rq[0]);
    MPI_Isend(out, cnt, MPI_DOUBLE, nbr[d], TAG_HALO + d, s->comm, &rq[1]);
    MPI_Status st[2];
    MPI_Waitall(2, rq, st);
    if (src == MPI_PROC_NULL) continue;
    q = 0;
    for (int k = 1; k <= s->n; ++k)
      if (d < 2) {
        for (int j = 1; j <= s->ny; ++j)
          s->u[at(s, d == 0 ? s->nx + 1 : 0, j, k)] = in[q++];
      } else {
        for (int i = 1; i <= s->nx; ++i)
          s->u[at(s, i, d == 2 ? s->ny + 1 : 0, k)] = in[q++];
      }
  }
  free(buf);
}

/* Gauss-Seidel up the planes: new values from west and south, old from east and north. */
static void sweep_up(Lu* s) {
  for (int k = 1; k <= s->n; ++k) {
    recv_from(s, s->col, s->ny, s->west, TAG_FROM_WEST);
    if (s->west != MPI_PROC_NULL) column(s, 0, k, 0);
    recv_from(s, s->row, s->nx, s->south, TAG_FROM_SOUTH);
    if (s->south != MPI_PROC_NULL) row(s, 0, k, 0);
    for (int j = 1; j <= s->ny; ++j)
      for (int i = 1; i <= s->nx; ++i)
        relax(s, i, j, k);
    column(s, s->nx, k, 1);
    MPI_Send(s->col, s->ny, MPI_DOUBLE, s->east, TAG_FROM_WEST, s->comm);
    row(s, s->ny, k, 1);
    MPI_Send(s->row, s->nx, MPI_DOUBLE, s->north, TAG_FROM_SOUTH, s->comm);
  }
}

/* And down: new values from east and north. */
static void sweep_down(Lu* s) {
  for (int k = s->n; k >= 1; --k) {
    recv_from(s, s->col, s->ny, s->east, TAG_FROM_EAST);
    if (s->east != MPI_PROC_NULL) column(s, s->nx + 1, k, 0);
    recv_from(s, s->row, s->nx, s->north, TAG_FROM_NORTH);
    if (s->north != MPI_PROC_NULL) row(s, s->ny + 1, k, 0);
    for (int j = s->ny; j >= 1; --j)
      for (int i = s->nx; i >= 1; --i)
        relax(s, i, j, k);
    column(s, 1, k, 1);
    MPI_Send(s->col, s->ny, MPI_DOUBLE, s->west, TAG_FROM_EAST, s->comm);
    row(s, 1, k, 1);
    MPI_Send(s->row, s->nx, MPI_DOUBLE, s->south, TAG_FROM_NORTH, s->comm);
  }
}

/* ||f - A u|| / N^3 (A: the 7-point operator scaled by 1/h^2 as f is) and the sum of u. */
static void norms(Lu* s, double* res, double* sum) {
  halo(s);
  const long sj = s->nx + 2, sk = sj * (s->ny + 2);
  double v[2] = {0, 0};
  for (int k = 1; k <= s->n; ++k)
    for (int j = 1; j <= s->ny; ++j)
      for (int i = 1; i <= s->nx; ++i) {
        const long x = at(s, i, j, k);
        const double r = s->f[x] - (6.0 * s->u[x] - s->u[x - 1] - s->u[x + 1] - s->u[x - sj] -
                                    s->u[x + sj] - s->u[x - sk] - s->u[x + sk]);
        v[0] += r * r;
        v[1] += s->u[x];
      }
  MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, s->comm);
  *res = sqrt(v[0]) / ((double)s->n * s->n * s->n);
  *sum = v[1];
}

static void setup(Lu* s, MPI_Comm comm, int any, int n, int px, int py) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  const int cx = rank % px, cy = rank / px;
  *s = (Lu){.comm = comm, .any = any, .n = n};
  s->x0 = (int)((long)n * cx / px);
  s->nx = (int)((long)n * (cx + 1) / px) - s->x0;
  s->y0 = (int)((long)n * cy / py);
  s->ny = (int)((long)n * (cy + 1) / py) - s->y0;
  s->west = cx > 0 ? rank - 1 : MPI_PROC_NULL;
  s->east = cx < px - 1 ? rank + 1 : MPI_PROC_NULL;
  s->south = cy > 0 ? rank - px : MPI_PROC_NULL;
  s->north = cy < py - 1 ? rank + px : MPI_PROC_NULL;
  const long all = (long)(s->nx + 2) * (s->ny + 2) * (n + 2);
  s->u = calloc(all, sizeof(double));
  s->f = calloc(all, sizeof(double));
  s->col = malloc(sizeof(double) * (s->ny + 1));
  s->row = malloc(sizeof(double) * (s->nx + 1));
  /* A source term known everywhere from global indices (h^2 f, h = 1 / (N + 1)). */
  const double h2 = 1.0 / ((n + 1.0) * (n + 1.0));
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= s->ny; ++j)
      for (int i = 1; i <= s->nx; ++i) {
        const int gi = s->x0 + i, gj = s->y0 + j;
        s->f[at(s, i, j, k)] = h2 * (double)((gi * 7 + gj * 13 + k * 17) % 11 - 5);
      }
}

static void release(Lu* s) {
  free(s->u);
  free(s->f);
  free(s->col);
  free(s->row);
}

static void ssor(Lu* s, int iterations) {
  for (int it = 0; it < iterations; ++it) {
    halo(s);
    sweep_up(s);
    halo(s);
    sweep_down(s);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char cls = npb_class(argc, argv, rank);
  const int any = strcmp(npb_variant(argc, argv), "any") == 0;
  const int n = cls == 'S' ? 12 : cls == 'W' ? 33 : 64;
  const int iterations = cls == 'S' ? 50 : cls == 'W' ? 300 : 250;
  int px = 1;
  for (int d = 1; d * d <= size; ++d)
    if (size % d == 0) px = d;
  const int py = size / px;
  npb_require(px <= n && py <= n, rank, "lu", "too many ranks for the grid");

  Lu s;
  setup(&s, MPI_COMM_WORLD, any, n, px, py);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  ssor(&s, iterations);
  double res, sum;
  norms(&s, &res, &sum);
  const double t = npb_max_time(MPI_Wtime() - t0);
  release(&s);

  if (rank == 0) {
    Lu one;
    setup(&one, MPI_COMM_SELF, 0, n, 1, 1);
    ssor(&one, iterations);
    double res1, sum1;
    norms(&one, &res1, &sum1);
    release(&one);
    const double e1 = fabs(res - res1) / res1, e2 = fabs(sum - sum1) / fabs(sum1);
    printf(" Residual %20.13e (serial %20.13e), sum of u %20.13e (serial %20.13e)\n", res, res1,
           sum, sum1);
    char sz[48];
    snprintf(sz, sizeof sz, "%dx%dx%d", n, n, n);
    /* 2 sweeps x 10 operations per point per iteration. */
    npb_print_results(any ? "LU (any source)" : "LU", cls, sz, iterations, size, t,
                      20.0 * n * n * (double)n * iterations / t / 1e6, "floating point",
                      e1 <= 1e-10 && e2 <= 1e-10);
  }
  MPI_Finalize();
  return 0;
}
