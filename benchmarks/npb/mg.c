/* MG (multigrid), after the NPB specification: V-cycles for the 3-D Poisson equation with
 * periodic boundaries on an N^3 grid, from a right-hand side that is +1 at the ten largest and
 * -1 at the ten smallest of N^3 numbers from NPB's generator; NPB's 27-point operators A
 * (residual), S (smoother), P (restriction) and Q (trilinear interpolation). Verified against
 * NPB's official L2 norm of the final residual.
 *
 * The grid is split in blocks over a power of two of ranks; halos are exchanged face by face.
 * Coarse levels with fewer points than ranks along an axis are gathered (MPI_Allgather) and
 * computed by every rank.
 *
 * usage: mg [S|W|A] [any]
 *   any: halos are received from MPI_ANY_SOURCE, each direction with its own tag (the paper's
 *   "determinism of the second kind"). */
#include "npb.h"

enum { MAX_LEVELS = 12 };

typedef struct {
  int n[3], off[3]; /* local interior points and global offset per axis */
  int repl;         /* computed by every rank on the whole level */
} Level;

typedef struct {
  int rank, size, any;
  int p[3], c[3];      /* process grid and this rank's coordinates */
  int nbr[3][2];       /* neighbour ranks: axis, side (0 = lower) */
  double *sbuf, *rbuf; /* face buffers */
} Mg;

static long points(const Level* l) {
  return (long)(l->n[0] + 2) * (l->n[1] + 2) * (l->n[2] + 2);
}
static long at(const Level* l, int i, int j, int k) {
  return i + (long)(l->n[0] + 2) * (j + (long)(l->n[1] + 2) * k);
}

static int rank_of(const Mg* m, const int* c) {
  return c[0] + m->p[0] * (c[1] + m->p[1] * c[2]);
}

/* Copies the plane `idx` of axis d (with the halos of the other axes) to or from buf. */
static void face(const Level* l, double* a, int d, int idx, double* buf, int to_buf) {
  const int e[3] = {l->n[0] + 2, l->n[1] + 2, l->n[2] + 2};
  const int d1 = (d + 1) % 3, d2 = (d + 2) % 3;
  long q = 0;
  for (int y = 0; y < e[d2]; ++y)
    for (int x = 0; x < e[d1]; ++x) {
      int c[3];
      c[d] = idx;
      c[d1] = x;
      c[d2] = y;
      double* v = &a[at(l, c[0], c[1], c[2])];
      if (to_buf)
        buf[q++] = *v;
      else
        *v = buf[q++];
    }
}

/* Fills the halo of a: periodic copies inside the rank, faces from the neighbours otherwise.
 * Axis by axis, each face carrying the halos already filled, so edges and corners arrive too. */
static void comm3(Mg* m, const Level* l, double* a) {
  for (int d = 0; d < 3; ++d) {
    const int n = l->n[d];
    if (l->repl || m->p[d] == 1) {
      const long plane = (long)(l->n[(d + 1) % 3] + 2) * (l->n[(d + 2) % 3] + 2);
      face(l, a, d, n, m->sbuf, 1);
      face(l, a, d, 0, m->sbuf, 0);
      face(l, a, d, 1, m->sbuf + plane, 1);
      face(l, a, d, n + 1, m->sbuf + plane, 0);
      continue;
    }
    const long plane = (long)(l->n[(d + 1) % 3] + 2) * (l->n[(d + 2) % 3] + 2);
    MPI_Request req[4];
    /* Tag 2d + s: a face travelling towards side s of its receiver's axis d. */
    for (int s = 0; s < 2; ++s) {
      const int src = m->any ? MPI_ANY_SOURCE : m->nbr[d][s];
      MPI_Irecv(m->rbuf + s * plane, (int)plane, MPI_DOUBLE, src, 2 * d + s, MPI_COMM_WORLD,
                &req[s]);
    }
    face(l, a, d, 1, m->sbuf, 1);
    face(l, a, d, n, m->sbuf + plane, 1);
    MPI_Isend(m->sbuf, (int)plane, MPI_DOUBLE, m->nbr[d][0], 2 * d + 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(m->sbuf + plane, (int)plane, MPI_DOUBLE, m->nbr[d][1], 2 * d, MPI_COMM_WORLD,
              &req[3]);
    MPI_Status st[4]; /* not MPI_STATUSES_IGNORE: GCC takes it for a too-small array */
    MPI_Waitall(4, req, st);
    face(l, a, d, 0, m->rbuf, 0);
    face(l, a, d, n + 1, m->rbuf + plane, 0);
  }
}

/* Sums of the 27-point neighbourhood of a[i] by distance class: centre, faces, edges, corners. */
static void classes(const double* a, long i, long s1, long s2, double* s) {
  s[0] = a[i];
  s[1] = a[i - 1] + a[i + 1] + a[i - s1] + a[i + s1] + a[i - s2] + a[i + s2];
  s[2] = a[i - 1 - s1] + a[i + 1 - s1] + a[i - 1 + s1] + a[i + 1 + s1] + a[i - 1 - s2] +
         a[i + 1 - s2] + a[i - 1 + s2] + a[i + 1 + s2] + a[i - s1 - s2] + a[i + s1 - s2] +
         a[i - s1 + s2] + a[i + s1 + s2];
  s[3] = a[i - 1 - s1 - s2] + a[i + 1 - s1 - s2] + a[i - 1 + s1 - s2] + a[i + 1 + s1 - s2] +
         a[i - 1 - s1 + s2] + a[i + 1 - s1 + s2] + a[i - 1 + s1 + s2] + a[i + 1 + s1 + s2];
}

/* r = v - A u (r may be v). */
static void resid(Mg* m, const Level* l, const double* u, const double* v, double* r,
                  const double* a) {
  const long s1 = l->n[0] + 2, s2 = s1 * (l->n[1] + 2);
  for (int k = 1; k <= l->n[2]; ++k)
    for (int j = 1; j <= l->n[1]; ++j)
      for (int i = 1; i <= l->n[0]; ++i) {
        const long x = at(l, i, j, k);
        double s[4];
        classes(u, x, s1, s2, s);
        r[x] = v[x] - a[0] * s[0] - a[1] * s[1] - a[2] * s[2] - a[3] * s[3];
      }
  comm3(m, l, r);
}

/* u = u + S r. */
static void psinv(Mg* m, const Level* l, const double* r, double* u, const double* c) {
  const long s1 = l->n[0] + 2, s2 = s1 * (l->n[1] + 2);
  for (int k = 1; k <= l->n[2]; ++k)
    for (int j = 1; j <= l->n[1]; ++j)
      for (int i = 1; i <= l->n[0]; ++i) {
        const long x = at(l, i, j, k);
        double s[4];
        classes(r, x, s1, s2, s);
        u[x] += c[0] * s[0] + c[1] * s[1] + c[2] * s[2] + c[3] * s[3];
      }
  comm3(m, l, u);
}

/* Coarse s = P fine r: coarse point c sits on fine point 2c (both counted from the halo). */
static void rprj3(Mg* m, const Level* fl, const double* r, const Level* cl, double* s) {
  const long s1 = fl->n[0] + 2, s2 = s1 * (fl->n[1] + 2);
  for (int k = 1; k <= cl->n[2]; ++k)
    for (int j = 1; j <= cl->n[1]; ++j)
      for (int i = 1; i <= cl->n[0]; ++i) {
        double q[4];
        classes(r, at(fl, 2 * i, 2 * j, 2 * k), s1, s2, q);
        s[at(cl, i, j, k)] = 0.5 * q[0] + 0.25 * q[1] + 0.125 * q[2] + 0.0625 * q[3];
      }
  comm3(m, cl, s);
}

/* Fine u += Q coarse z. Fine point f (global, from the halo) is coarse f/2 when even, the mean
 * of (f-1)/2 and (f+1)/2 when odd; z may be the whole coarse level (offset 0). */
static void interp(Mg* m, const Level* cl, const double* z, const Level* fl, double* u) {
  for (int k = 1; k <= fl->n[2]; ++k)
    for (int j = 1; j <= fl->n[1]; ++j)
      for (int i = 1; i <= fl->n[0]; ++i) {
        const int f[3] = {fl->off[0] + i, fl->off[1] + j, fl->off[2] + k};
        int lo[3], hi[3];
        for (int d = 0; d < 3; ++d) {
          lo[d] = (f[d] >> 1) - cl->off[d];
          hi[d] = lo[d] + (f[d] & 1);
        }
        double sum = 0;
        for (int c = lo[2]; c <= hi[2]; ++c)
          for (int b = lo[1]; b <= hi[1]; ++b)
            for (int a = lo[0]; a <= hi[0]; ++a)
              sum += z[at(cl, a, b, c)];
        const int odd = (f[0] & 1) + (f[1] & 1) + (f[2] & 1);
        u[at(fl, i, j, k)] += sum / (double)(1 << odd);
      }
  comm3(m, fl, u);
}

/* The whole level `whole` (replicated) from every rank's block of `part`. */
static void gather(Mg* m, const Level* part, const double* a, const Level* whole, double* w) {
  const long n = (long)part->n[0] * part->n[1] * part->n[2];
  double* mine = malloc(sizeof(double) * n);
  double* all = malloc(sizeof(double) * n * m->size);
  long q = 0;
  for (int k = 1; k <= part->n[2]; ++k)
    for (int j = 1; j <= part->n[1]; ++j)
      for (int i = 1; i <= part->n[0]; ++i)
        mine[q++] = a[at(part, i, j, k)];
  MPI_Allgather(mine, (int)n, MPI_DOUBLE, all, (int)n, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int r = 0; r < m->size; ++r) {
    const int c[3] = {r % m->p[0], r / m->p[0] % m->p[1], r / (m->p[0] * m->p[1])};
    q = r * n;
    for (int k = 1; k <= part->n[2]; ++k)
      for (int j = 1; j <= part->n[1]; ++j)
        for (int i = 1; i <= part->n[0]; ++i)
          w[at(whole, c[0] * part->n[0] + i, c[1] * part->n[1] + j, c[2] * part->n[2] + k)] =
              all[q++];
  }
  comm3(m, whole, w);
  free(mine);
  free(all);
}

typedef struct {
  int lt, gathered;            /* finest level; the coarsest level computed by blocks */
  Level lv[MAX_LEVELS], whole; /* whole: level `gathered` replicated */
  double *u[MAX_LEVELS], *r[MAX_LEVELS], *wr;
  double a[4], c[4];
} Cycle;

static void mg3p(Mg* m, Cycle* y, double* v) {
  const int lt = y->lt;
  for (int k = lt; k > 1; --k) {
    if (y->lv[k - 1].repl && !y->lv[k].repl) {
      gather(m, &y->lv[k], y->r[k], &y->whole, y->wr);
      rprj3(m, &y->whole, y->wr, &y->lv[k - 1], y->r[k - 1]);
    } else {
      rprj3(m, &y->lv[k], y->r[k], &y->lv[k - 1], y->r[k - 1]);
    }
  }
  memset(y->u[1], 0, sizeof(double) * points(&y->lv[1]));
  psinv(m, &y->lv[1], y->r[1], y->u[1], y->c);
  for (int k = 2; k <= lt; ++k) {
    if (k < lt) memset(y->u[k], 0, sizeof(double) * points(&y->lv[k]));
    interp(m, &y->lv[k - 1], y->u[k - 1], &y->lv[k], y->u[k]);
    resid(m, &y->lv[k], y->u[k], k < lt ? y->r[k] : v, y->r[k], y->a);
    psinv(m, &y->lv[k], y->r[k], y->u[k], y->c);
  }
}

typedef struct {
  double v;
  long pos;
} Cand;

static int cand_desc(const void* x, const void* y) {
  const Cand *a = x, *b = y;
  if (a->v != b->v) return a->v > b->v ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}

/* NPB's zran3: v = +1 at the ten largest of the grid's numbers, -1 at the ten smallest. The
 * number at global (x, y, z) is the (x + N (y + N z) + 1)-th of the sequence. */
static void zran3(Mg* m, const Level* l, int nglob, double* v) {
  enum { MM = 10 };
  Cand best[2 * MM]; /* this rank's ten largest, then ten smallest (stored negated) */
  for (int i = 0; i < 2 * MM; ++i)
    best[i] = (Cand){-2.0, -1};
  memset(v, 0, sizeof(double) * points(l));
  double* row = malloc(sizeof(double) * l->n[0]);
  for (int k = 1; k <= l->n[2]; ++k)
    for (int j = 1; j <= l->n[1]; ++j) {
      const long g0 =
          (l->off[0]) + (long)nglob * ((l->off[1] + j - 1) + (long)nglob * (l->off[2] + k - 1));
      double seed = npb_skip(NPB_SEED, (uint64_t)g0);
      vranlc(l->n[0], &seed, NPB_A, row);
      for (int i = 0; i < l->n[0]; ++i) {
        const Cand c[2] = {{row[i], g0 + i}, {-row[i], g0 + i}};
        for (int h = 0; h < 2; ++h) {
          Cand* b = best + h * MM;
          if (cand_desc(&c[h], &b[MM - 1]) >= 0) continue;
          int p = MM - 1;
          while (p > 0 && cand_desc(&c[h], &b[p - 1]) < 0) {
            b[p] = b[p - 1];
            --p;
          }
          b[p] = c[h];
        }
      }
    }
  free(row);
  /* Rank 0 picks the twenty among every rank's candidates (a gather, not an allgather: every
   * rank holding all candidates would cost memory quadratic in the ranks) and sends them out. */
  MPI_Datatype t;
  MPI_Type_contiguous((int)sizeof(Cand), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  Cand* all = m->rank == 0 ? malloc(sizeof(Cand) * 2 * MM * m->size) : NULL;
  MPI_Gather(best, 2 * MM, t, all, 2 * MM, t, 0, MPI_COMM_WORLD);
  Cand chosen[2 * MM];
  if (m->rank == 0)
    for (int h = 0; h < 2; ++h) {
      Cand* pick = malloc(sizeof(Cand) * MM * m->size);
      for (int r = 0; r < m->size; ++r)
        memcpy(pick + r * MM, all + r * 2 * MM + h * MM, sizeof(Cand) * MM);
      qsort(pick, (size_t)MM * m->size, sizeof(Cand), cand_desc);
      memcpy(chosen + h * MM, pick, sizeof(Cand) * MM);
      free(pick);
    }
  MPI_Bcast(chosen, 2 * MM, t, 0, MPI_COMM_WORLD);
  MPI_Type_free(&t);
  for (int i = 0; i < 2 * MM; ++i) {
    const long g = chosen[i].pos;
    const int x = (int)(g % nglob) - l->off[0], y = (int)(g / nglob % nglob) - l->off[1],
              z = (int)(g / ((long)nglob * nglob)) - l->off[2];
    if (x >= 0 && x < l->n[0] && y >= 0 && y < l->n[1] && z >= 0 && z < l->n[2])
      v[at(l, x + 1, y + 1, z + 1)] = i < MM ? 1.0 : -1.0;
  }
  free(all);
  comm3(m, l, v);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Mg m = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m.size);
  const char cls = npb_class(argc, argv, m.rank);
  m.any = strcmp(npb_variant(argc, argv), "any") == 0;
  const int nglob = cls == 'S' ? 32 : cls == 'W' ? 128 : 256, nit = 4;
  const double ref = cls == 'S'   ? 0.5307707005734e-04
                     : cls == 'W' ? 0.6467329375339e-05
                                  : 0.2433365309069e-05;
  npb_require(npb_is_pow2(m.size) && m.size <= nglob * nglob * nglob, m.rank, "mg",
              "the rank count must be a power of two, at most the grid's points");
  /* Factors of two go to z, y, x in turn. */
  m.p[0] = m.p[1] = m.p[2] = 1;
  for (int f = m.size, d = 2; f > 1; f /= 2, d = (d + 2) % 3)
    m.p[d] *= 2;
  m.c[0] = m.rank % m.p[0];
  m.c[1] = m.rank / m.p[0] % m.p[1];
  m.c[2] = m.rank / (m.p[0] * m.p[1]);
  for (int d = 0; d < 3; ++d)
    for (int s = 0; s < 2; ++s) {
      int c[3] = {m.c[0], m.c[1], m.c[2]};
      c[d] = (c[d] + (s ? 1 : m.p[d] - 1)) % m.p[d];
      m.nbr[d][s] = rank_of(&m, c);
    }

  Cycle y = {.a = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0},
             .c = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0}};
  y.lt = npb_ilog2(nglob);
  y.gathered = 1;
  for (int k = 1; k <= y.lt; ++k) {
    Level* l = &y.lv[k];
    const int n = 1 << k;
    l->repl = n < m.p[0] || n < m.p[1] || n < m.p[2];
    if (!l->repl && y.lv[k - 1].repl) y.gathered = k;
    for (int d = 0; d < 3; ++d) {
      l->n[d] = l->repl ? n : n / m.p[d];
      l->off[d] = l->repl ? 0 : m.c[d] * l->n[d];
    }
    y.u[k] = calloc(points(l), sizeof(double));
    y.r[k] = calloc(points(l), sizeof(double));
  }
  y.whole = y.lv[y.gathered];
  y.whole.repl = 1;
  for (int d = 0; d < 3; ++d) {
    y.whole.n[d] = 1 << y.gathered;
    y.whole.off[d] = 0;
  }
  y.wr = calloc(points(&y.whole), sizeof(double));
  long plane = 0; /* the largest face of any level */
  for (int k = 1; k <= y.lt + 1; ++k) {
    const Level* l = k <= y.lt ? &y.lv[k] : &y.whole;
    for (int d = 0; d < 3; ++d) {
      const long f = (long)(l->n[(d + 1) % 3] + 2) * (l->n[(d + 2) % 3] + 2);
      plane = f > plane ? f : plane;
    }
  }
  m.sbuf = malloc(sizeof(double) * 2 * plane);
  m.rbuf = malloc(sizeof(double) * 2 * plane);
  const Level* top = &y.lv[y.lt];
  double* v = calloc(points(top), sizeof(double));
  double *u = y.u[y.lt], *r = y.r[y.lt];

  zran3(&m, top, nglob, v);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  resid(&m, top, u, v, r, y.a);
  for (int it = 1; it <= nit; ++it) {
    mg3p(&m, &y, v);
    resid(&m, top, u, v, r, y.a);
  }
  double norm = 0;
  for (int k = 1; k <= top->n[2]; ++k)
    for (int j = 1; j <= top->n[1]; ++j)
      for (int i = 1; i <= top->n[0]; ++i)
        norm += r[at(top, i, j, k)] * r[at(top, i, j, k)];
  MPI_Allreduce(MPI_IN_PLACE, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double rnm2 = sqrt(norm / ((double)nglob * nglob * nglob));
  const double t = npb_max_time(MPI_Wtime() - t0);
  if (m.rank == 0) {
    const double err = fabs(rnm2 - ref) / ref;
    printf(" L2 Norm is %20.13e, reference %20.13e, error %e\n", rnm2, ref, err);
    char sz[48];
    snprintf(sz, sizeof sz, "%dx%dx%d", nglob, nglob, nglob);
    npb_print_results(m.any ? "MG (any source)" : "MG", cls, sz, nit, m.size, t,
                      58.0 * nit * nglob * (double)nglob * nglob / t / 1e6, "floating point",
                      err <= 1e-8);
  }
  for (int k = 1; k <= y.lt; ++k) {
    free(y.u[k]);
    free(y.r[k]);
  }
  free(y.wr);
  free(v);
  free(m.sbuf);
  free(m.rbuf);
  MPI_Finalize();
  return 0;
}
