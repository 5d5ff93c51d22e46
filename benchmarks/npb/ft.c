/* FT (3-D FFT), after the NPB specification: a random complex field from NPB's generator is
 * transformed, evolved in Fourier space by exp(-4 alpha pi^2 |k|^2 t) and transformed back each
 * iteration; NPB's checksum of 1024 samples is verified against the official values.
 * Slabs of z-planes per rank; the transform along z follows a transpose by MPI_Alltoall into
 * slabs of y-rows.
 *
 * usage: ft [S|W|A]     (the rank count must divide ny and nz) */
#include "npb.h"

enum { FT_ITERATIONS = 6 };

typedef struct {
  int nx, ny, nz;
  double ref[FT_ITERATIONS][2];
} FtClass;

static const FtClass ft_classes[] = {
    {64,
     64,
     64,
     {{5.546087004964e+02, 4.845363331978e+02},
      {5.546385409189e+02, 4.865304269511e+02},
      {5.546148406171e+02, 4.883910722336e+02},
      {5.545423607415e+02, 4.901273169046e+02},
      {5.544255039624e+02, 4.917475857993e+02},
      {5.542683411902e+02, 4.932597244941e+02}}},
    {128,
     128,
     32,
     {{5.673612178944e+02, 5.293246849175e+02},
      {5.631436885271e+02, 5.282149986629e+02},
      {5.594024089970e+02, 5.270996558037e+02},
      {5.560698047020e+02, 5.260027904925e+02},
      {5.530898991250e+02, 5.249400845633e+02},
      {5.504159734538e+02, 5.239212247086e+02}}},
    {256,
     256,
     128,
     {{5.046735008193e+02, 5.114047905510e+02},
      {5.059412319734e+02, 5.098809666433e+02},
      {5.069376896287e+02, 5.098144042213e+02},
      {5.077892868474e+02, 5.101336130759e+02},
      {5.085233095391e+02, 5.104914655194e+02},
      {5.091487099959e+02, 5.107917842803e+02}}},
};

/* Complex numbers are pairs of doubles (re, im). */
typedef struct {
  int rank, size, nx, ny, nz, zl, yl; /* zl planes of layout A, yl rows of layout B per rank */
  double* line;                       /* one line of at most max(nx, ny, nz) values */
  double* send;                       /* transpose buffer */
} Ft;

/* In-place radix-2 FFT of n complex values (n a power of two); sign -1 forward, +1 inverse,
 * unnormalized. */
static void fft1(double* v, int n, int sign) {
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = v[2 * i];
      v[2 * i] = v[2 * j];
      v[2 * j] = t;
      t = v[2 * i + 1];
      v[2 * i + 1] = v[2 * j + 1];
      v[2 * j + 1] = t;
    }
  }
  for (int len = 2; len <= n; len <<= 1) {
    const double ang = sign * 2.0 * M_PI / len;
    for (int k = 0; k < len / 2; ++k) {
      const double wr = cos(ang * k), wi = sin(ang * k);
      for (int s = 0; s < n; s += len) {
        double* a = v + 2 * (s + k);
        double* b = v + 2 * (s + k + len / 2);
        const double tr = b[0] * wr - b[1] * wi, ti = b[0] * wi + b[1] * wr;
        b[0] = a[0] - tr;
        b[1] = a[1] - ti;
        a[0] += tr;
        a[1] += ti;
      }
    }
  }
}

/* FFT of every line of `count` lines of n values, stride `stride` between values and `step`
 * between lines' starts, `per` lines per block and `block` between blocks. */
static void fft_lines(Ft* f, double* u, int n, long stride, int blocks, long block, int per,
                      long step, int sign) {
  for (int b = 0; b < blocks; ++b)
    for (int l = 0; l < per; ++l) {
      double* base = u + 2 * (b * block + l * step);
      for (int i = 0; i < n; ++i) {
        f->line[2 * i] = base[2 * i * stride];
        f->line[2 * i + 1] = base[2 * i * stride + 1];
      }
      fft1(f->line, n, sign);
      for (int i = 0; i < n; ++i) {
        base[2 * i * stride] = f->line[2 * i];
        base[2 * i * stride + 1] = f->line[2 * i + 1];
      }
    }
}

/* Layout A: [z (zl local planes)][y][x]. Layout B: [y (yl local rows)][z][x]. */
static void transpose_a_to_b(Ft* f, const double* a, double* b) {
  const long blk = (long)f->zl * f->yl * f->nx;
  for (int d = 0; d < f->size; ++d)
    for (int z = 0; z < f->zl; ++z)
      for (int y = 0; y < f->yl; ++y)
        memcpy(f->send + 2 * (d * blk + ((long)z * f->yl + y) * f->nx),
               a + 2 * (((long)z * f->ny + d * f->yl + y) * f->nx), sizeof(double) * 2 * f->nx);
  MPI_Alltoall(f->send, (int)(2 * blk), MPI_DOUBLE, b, (int)(2 * blk), MPI_DOUBLE, MPI_COMM_WORLD);
  /* b holds, per source s, [z][y][x] blocks; rearrange to [y][z][x] in place via send. */
  memcpy(f->send, b, sizeof(double) * 2 * blk * f->size);
  for (int s = 0; s < f->size; ++s)
    for (int z = 0; z < f->zl; ++z)
      for (int y = 0; y < f->yl; ++y)
        memcpy(b + 2 * (((long)y * f->nz + s * f->zl + z) * f->nx),
               f->send + 2 * (s * blk + ((long)z * f->yl + y) * f->nx), sizeof(double) * 2 * f->nx);
}

static void transpose_b_to_a(Ft* f, const double* b, double* a) {
  const long blk = (long)f->zl * f->yl * f->nx;
  for (int d = 0; d < f->size; ++d)
    for (int z = 0; z < f->zl; ++z)
      for (int y = 0; y < f->yl; ++y)
        memcpy(f->send + 2 * (d * blk + ((long)z * f->yl + y) * f->nx),
               b + 2 * (((long)y * f->nz + d * f->zl + z) * f->nx), sizeof(double) * 2 * f->nx);
  MPI_Alltoall(f->send, (int)(2 * blk), MPI_DOUBLE, a, (int)(2 * blk), MPI_DOUBLE, MPI_COMM_WORLD);
  memcpy(f->send, a, sizeof(double) * 2 * blk * f->size);
  for (int s = 0; s < f->size; ++s)
    for (int z = 0; z < f->zl; ++z)
      for (int y = 0; y < f->yl; ++y)
        memcpy(a + 2 * (((long)z * f->ny + s * f->yl + y) * f->nx),
               f->send + 2 * (s * blk + ((long)z * f->yl + y) * f->nx), sizeof(double) * 2 * f->nx);
}

/* Forward: x and y in layout A, then z in layout B. */
static void fft_forward(Ft* f, double* a, double* b) {
  fft_lines(f, a, f->nx, 1, f->zl, (long)f->ny * f->nx, f->ny, f->nx, -1);
  fft_lines(f, a, f->ny, f->nx, f->zl, (long)f->ny * f->nx, f->nx, 1, -1);
  transpose_a_to_b(f, a, b);
  fft_lines(f, b, f->nz, f->nx, f->yl, (long)f->nz * f->nx, f->nx, 1, -1);
}

static void fft_inverse(Ft* f, double* b, double* a) {
  fft_lines(f, b, f->nz, f->nx, f->yl, (long)f->nz * f->nx, f->nx, 1, 1);
  transpose_b_to_a(f, b, a);
  fft_lines(f, a, f->ny, f->nx, f->zl, (long)f->ny * f->nx, f->nx, 1, 1);
  fft_lines(f, a, f->nx, 1, f->zl, (long)f->ny * f->nx, f->ny, f->nx, 1);
}

static int wrapped(int i, int n) {
  return i < n / 2 ? i : i - n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Ft f = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &f.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &f.size);
  const char cls = npb_class(argc, argv, f.rank);
  const FtClass* c = &ft_classes[cls == 'S' ? 0 : cls == 'W' ? 1 : 2];
  f.nx = c->nx;
  f.ny = c->ny;
  f.nz = c->nz;
  npb_require(f.ny % f.size == 0 && f.nz % f.size == 0, f.rank, "ft",
              "the rank count must divide the grid's y and z sizes");
  f.zl = f.nz / f.size;
  f.yl = f.ny / f.size;
  const long local = (long)f.zl * f.ny * f.nx; /* = yl * nz * nx */
  const double ntotal = (double)f.nx * f.ny * f.nz;
  double* u0 = malloc(sizeof(double) * 2 * local); /* layout A */
  double* u1 = malloc(sizeof(double) * 2 * local); /* layout B, the evolving spectrum */
  double* u2 = malloc(sizeof(double) * 2 * local); /* layout B, scratch */
  double* twiddle = malloc(sizeof(double) * local);
  f.line = malloc(sizeof(double) * 2 *
                  (f.nx > f.ny ? (f.nx > f.nz ? f.nx : f.nz) : (f.ny > f.nz ? f.ny : f.nz)));
  f.send = malloc(sizeof(double) * 2 * local);
  double sums[FT_ITERATIONS][2];

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  /* Initial conditions: complex (x, y, z) takes numbers 2 (x + nx (y + ny z)) + 1 and + 2. */
  double seed = npb_skip(NPB_SEED, (uint64_t)2 * f.nx * f.ny * f.zl * f.rank);
  vranlc((int)(2 * local), &seed, NPB_A, u0);
  const double ap = -4.0 * 1.0e-6 * M_PI * M_PI;
  for (int y = 0; y < f.yl; ++y)
    for (int z = 0; z < f.nz; ++z)
      for (int x = 0; x < f.nx; ++x) {
        const int ky = wrapped(f.rank * f.yl + y, f.ny), kz = wrapped(z, f.nz),
                  kx = wrapped(x, f.nx);
        twiddle[((long)y * f.nz + z) * f.nx + x] = exp(ap * (double)(kx * kx + ky * ky + kz * kz));
      }
  fft_forward(&f, u0, u1);
  for (int it = 0; it < FT_ITERATIONS; ++it) {
    for (long i = 0; i < local; ++i) {
      u1[2 * i] *= twiddle[i];
      u1[2 * i + 1] *= twiddle[i];
    }
    memcpy(u2, u1, sizeof(double) * 2 * local);
    fft_inverse(&f, u2, u0);
    double chk[2] = {0, 0};
    for (int j = 1; j <= 1024; ++j) {
      const int x = j % f.nx, y = 3 * j % f.ny, z = 5 * j % f.nz;
      if (z / f.zl != f.rank) continue;
      const long i = ((long)(z % f.zl) * f.ny + y) * f.nx + x;
      chk[0] += u0[2 * i];
      chk[1] += u0[2 * i + 1];
    }
    MPI_Allreduce(chk, sums[it], 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sums[it][0] /= ntotal;
    sums[it][1] /= ntotal;
    if (f.rank == 0)
      printf(" T = %5d     Checksum = %22.12e %22.12e\n", it + 1, sums[it][0], sums[it][1]);
  }
  const double t = npb_max_time(MPI_Wtime() - t0);
  if (f.rank == 0) {
    int ok = 1;
    for (int it = 0; it < FT_ITERATIONS; ++it) {
      const double dr = sums[it][0] - c->ref[it][0], di = sums[it][1] - c->ref[it][1];
      ok &= sqrt(dr * dr + di * di) / hypot(c->ref[it][0], c->ref[it][1]) <= 1e-12;
    }
    char sz[48];
    snprintf(sz, sizeof sz, "%dx%dx%d", f.nx, f.ny, f.nz);
    const double mops =
        ntotal *
        (14.8157 + 7.19641 * log(ntotal) + (5.23518 + 7.21113 * log(ntotal)) * FT_ITERATIONS) / t /
        1e6;
    npb_print_results("FT", cls, sz, FT_ITERATIONS, f.size, t, mops, "floating point", ok);
  }
  free(u0);
  free(u1);
  free(u2);
  free(twiddle);
  free(f.line);
  free(f.send);
  MPI_Finalize();
  return 0;
}
