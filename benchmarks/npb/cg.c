/* CG (conjugate gradient), after the NPB specification: the smallest eigenvalue of a random
 * sparse symmetric positive definite matrix (NPB's makea: a sum of outer products of sparse
 * random vectors with geometrically shrinking weights, plus a shifted identity) by inverse power
 * iteration, each step solved by 25 unpreconditioned CG iterations. Rows are split in blocks over
 * the ranks; each product gathers the vector with MPI_Allgatherv and each dot product is an
 * MPI_Allreduce. Verified against NPB's official zeta.
 *
 * usage: cg [S|W|A] */
#include "npb.h"

enum { CG_ITERATIONS = 25 };

typedef struct {
  int na, nonzer, niter;
  double shift, zeta_ref;
} CgClass;

static const CgClass cg_classes[] = {
    {1400, 7, 15, 10.0, 8.5971775078648},
    {7000, 8, 15, 12.0, 10.362595087124},
    {14000, 11, 15, 20.0, 17.130235054029},
};

/* This rank's rows [row0, row1) in compressed sparse row form. */
typedef struct {
  int row0, row1;
  int *rowstr, *col;
  double* a;
} Matrix;

typedef struct {
  int row, col;
  double v;
} Entry;

static int by_position(const void* x, const void* y) {
  const Entry *a = x, *b = y;
  if (a->row != b->row) return a->row < b->row ? -1 : 1;
  return (a->col > b->col) - (a->col < b->col);
}

/* NPB's sprnvc: nz distinct random positions in 1..n (drawn in [0, nn1)) with random values. */
static void sparse_vector(int n, int nz, int nn1, double* tran, double* v, int* iv) {
  int nzv = 0;
  while (nzv < nz) {
    const double vecelt = randlc(tran, NPB_A);
    const double vecloc = randlc(tran, NPB_A);
    const int i = (int)(nn1 * vecloc) + 1;
    if (i > n) continue;
    int seen = 0;
    for (int k = 0; k < nzv && !seen; ++k)
      seen = iv[k] == i;
    if (seen) continue;
    v[nzv] = vecelt;
    iv[nzv++] = i;
  }
}

/* NPB's makea, keeping the rows of this rank. Every rank draws the whole sequence. */
static Matrix make_matrix(const CgClass* c, double* tran, int row0, int row1) {
  const int n = c->na, nz = c->nonzer;
  int nn1 = 1;
  while (nn1 < n)
    nn1 *= 2;
  const double rcond = 0.1, ratio = pow(rcond, 1.0 / n);
  double size = 1.0;
  double v[64];
  int iv[64];
  long cap = 1024, count = 0;
  Entry* e = malloc(sizeof(Entry) * cap);
  for (int i = 0; i < n; ++i) {
    sparse_vector(n, nz, nn1, tran, v, iv);
    int nzv = nz, found = 0; /* vecset: element i+1 becomes 0.5 */
    for (int k = 0; k < nzv; ++k)
      if (iv[k] == i + 1) {
        v[k] = 0.5;
        found = 1;
      }
    if (!found) {
      v[nzv] = 0.5;
      iv[nzv++] = i + 1;
    }
    for (int a = 0; a < nzv; ++a) {
      const int r = iv[a] - 1;
      if (r < row0 || r >= row1) continue;
      const double scale = size * v[a];
      for (int b = 0; b < nzv; ++b) {
        const int col = iv[b] - 1;
        double va = v[b] * scale;
        if (col == r && r == i) va += rcond - c->shift;
        if (count == cap) e = realloc(e, sizeof(Entry) * (cap *= 2));
        e[count++] = (Entry){r, col, va};
      }
    }
    size *= ratio;
  }
  qsort(e, count, sizeof(Entry), by_position);
  Matrix m = {row0, row1, calloc(row1 - row0 + 1, sizeof(int)), malloc(sizeof(int) * (count + 1)),
              malloc(sizeof(double) * (count + 1))};
  long k = 0;
  for (long j = 0; j < count; ++j) {
    if (k > 0 && e[j].row == e[k - 1].row && e[j].col == m.col[k - 1]) {
      m.a[k - 1] += e[j].v;
      continue;
    }
    m.col[k] = e[j].col;
    m.a[k] = e[j].v;
    e[k].row = e[j].row;
    ++k;
  }
  for (long j = 0; j < k; ++j)
    ++m.rowstr[e[j].row - row0 + 1];
  for (int r = 0; r < row1 - row0; ++r)
    m.rowstr[r + 1] += m.rowstr[r];
  free(e);
  return m;
}

typedef struct {
  const Matrix* m;
  int n, rows;
  int *counts, *displs;
  double* full; /* the whole vector, gathered for a product */
} Ctx;

/* y = A p for this rank's rows; p is this rank's block of the vector. */
static void matvec(Ctx* c, const double* p, double* y) {
  MPI_Allgatherv(p, c->rows, MPI_DOUBLE, c->full, c->counts, c->displs, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int r = 0; r < c->rows; ++r) {
    double s = 0;
    for (int k = c->m->rowstr[r]; k < c->m->rowstr[r + 1]; ++k)
      s += c->m->a[k] * c->full[c->m->col[k]];
    y[r] = s;
  }
}

static double dot(const Ctx* c, const double* x, const double* y) {
  double s = 0;
  for (int i = 0; i < c->rows; ++i)
    s += x[i] * y[i];
  MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

/* 25 CG iterations on A z = x from z = 0; returns ||x - A z||. */
static double conj_grad(Ctx* c, const double* x, double* z, double* p, double* q, double* r) {
  for (int i = 0; i < c->rows; ++i) {
    q[i] = z[i] = 0;
    r[i] = p[i] = x[i];
  }
  double rho = dot(c, r, r);
  for (int it = 0; it < CG_ITERATIONS; ++it) {
    matvec(c, p, q);
    const double alpha = rho / dot(c, p, q), rho0 = rho;
    for (int i = 0; i < c->rows; ++i) {
      z[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    rho = dot(c, r, r);
    const double beta = rho / rho0;
    for (int i = 0; i < c->rows; ++i)
      p[i] = r[i] + beta * p[i];
  }
  matvec(c, z, r);
  double s = 0;
  for (int i = 0; i < c->rows; ++i)
    s += (x[i] - r[i]) * (x[i] - r[i]);
  MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sqrt(s);
}

/* One inverse power step: z from x, then x = z / ||z||; returns zeta. */
static double power_step(Ctx* c, const CgClass* k, double* x, double* z, double* p, double* q,
                         double* r, double* rnorm) {
  *rnorm = conj_grad(c, x, z, p, q, r);
  double sums[2] = {0, 0};
  for (int i = 0; i < c->rows; ++i) {
    sums[0] += x[i] * z[i];
    sums[1] += z[i] * z[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double norm = 1.0 / sqrt(sums[1]);
  for (int i = 0; i < c->rows; ++i)
    x[i] = norm * z[i];
  return k->shift + 1.0 / sums[0];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char cls = npb_class(argc, argv, rank);
  const CgClass* k = &cg_classes[cls == 'S' ? 0 : cls == 'W' ? 1 : 2];
  npb_require(npb_is_pow2(size) && size <= k->na, rank, "cg",
              "the rank count must be a power of two");
  const int n = k->na;
  Ctx c = {0};
  c.n = n;
  c.counts = malloc(sizeof(int) * size);
  c.displs = malloc(sizeof(int) * size);
  for (int j = 0; j < size; ++j) {
    c.displs[j] = (int)((long)n * j / size);
    c.counts[j] = (int)((long)n * (j + 1) / size) - c.displs[j];
  }
  c.rows = c.counts[rank];
  double tran = NPB_SEED;
  randlc(&tran, NPB_A); /* NPB draws one number before makea */
  Matrix m = make_matrix(k, &tran, c.displs[rank], c.displs[rank] + c.rows);
  c.m = &m;
  c.full = malloc(sizeof(double) * n);
  double *x = malloc(sizeof(double) * (c.rows + 1)), *z = malloc(sizeof(double) * (c.rows + 1)),
         *p = malloc(sizeof(double) * (c.rows + 1)), *q = malloc(sizeof(double) * (c.rows + 1)),
         *r = malloc(sizeof(double) * (c.rows + 1));
  double rnorm = 0, zeta = 0;

  /* One untimed step, as in NPB, then start again from x = 1. */
  for (int i = 0; i < c.rows; ++i)
    x[i] = 1.0;
  power_step(&c, k, x, z, p, q, r, &rnorm);
  for (int i = 0; i < c.rows; ++i)
    x[i] = 1.0;

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int it = 1; it <= k->niter; ++it) {
    zeta = power_step(&c, k, x, z, p, q, r, &rnorm);
    if (rank == 0) printf("    %5d       %20.14e%20.13e\n", it, rnorm, zeta);
  }
  const double t = npb_max_time(MPI_Wtime() - t0);
  if (rank == 0) {
    const double err = fabs(zeta - k->zeta_ref) / k->zeta_ref;
    printf(" Zeta is %20.13e, reference %20.13e, error %e\n", zeta, k->zeta_ref, err);
    const double nz = k->nonzer;
    const double flops =
        2.0 * k->niter * n * (3.0 + nz * (nz + 1) + 25.0 * (5.0 + nz * (nz + 1)) + 3.0);
    char sz[32];
    snprintf(sz, sizeof sz, "%d", n);
    npb_print_results("CG", cls, sz, k->niter, size, t, flops / t / 1e6, "floating point",
                      err <= 1e-10);
  }
  free(m.rowstr);
  free(m.col);
  free(m.a);
  free(c.full);
  free(c.counts);
  free(c.displs);
  free(x);
  free(z);
  free(p);
  free(q);
  free(r);
  MPI_Finalize();
  return 0;
}
