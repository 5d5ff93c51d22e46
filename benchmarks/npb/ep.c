/* EP (embarrassingly parallel), after the NPB specification: 2^M pairs of uniform numbers from
 * NPB's generator become Gaussian deviates by the polar (Marsaglia) method; the program counts
 * them in square annuli and sums them. Verified against NPB's official sums.
 *
 * usage: ep [S|W|A] [farm]
 *   farm: rank 0 hands batches to workers and takes results from MPI_ANY_SOURCE (a master/worker
 *   task farm, whose order of arrival the simulator must settle); needs 2 ranks or more. */
#include "npb.h"

enum { MK = 16, NK = 1 << MK, NQ = 10, CHUNK = 2048 /* pairs generated at a time */ };

typedef struct {
  double sx, sy, q[NQ];
} Sums;

/* Batch k (0-based) of NK pairs: the numbers 2 NK k + 1 ... 2 NK (k + 1) of the sequence. */
static void ep_batch(long k, Sums* s) {
  double x[2 * CHUNK];
  double seed = npb_skip(271828183.0, (uint64_t)k * 2 * NK);
  for (int c = 0; c < NK; c += CHUNK) {
    vranlc(2 * CHUNK, &seed, NPB_A, x);
    for (int i = 0; i < CHUNK; ++i) {
      const double x1 = 2.0 * x[2 * i] - 1.0, x2 = 2.0 * x[2 * i + 1] - 1.0;
      const double t1 = x1 * x1 + x2 * x2;
      if (t1 <= 1.0) {
        const double t2 = sqrt(-2.0 * log(t1) / t1);
        const double t3 = x1 * t2, t4 = x2 * t2;
        const int l = (int)fmax(fabs(t3), fabs(t4));
        s->q[l] += 1.0;
        s->sx += t3;
        s->sy += t4;
      }
    }
  }
}

static void add(Sums* to, const Sums* s) {
  to->sx += s->sx;
  to->sy += s->sy;
  for (int i = 0; i < NQ; ++i)
    to->q[i] += s->q[i];
}

enum { TAG_WORK = 1, TAG_RESULT = 2, TAG_STOP = 3 };

/* Master of the farm: hands out one batch per request, sums results in their order of arrival. */
static void farm_master(long batches, int size, Sums* total) {
  long next = 0;
  int active = 0;
  for (int w = 1; w < size; ++w) {
    if (next < batches) {
      MPI_Send(&next, 1, MPI_LONG, w, TAG_WORK, MPI_COMM_WORLD);
      ++next;
      ++active;
    } else {
      MPI_Send(&next, 1, MPI_LONG, w, TAG_STOP, MPI_COMM_WORLD);
    }
  }
  while (active > 0) {
    Sums s;
    MPI_Status st;
    MPI_Recv(&s, 2 + NQ, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
    add(total, &s);
    const int tag = next < batches ? TAG_WORK : TAG_STOP;
    MPI_Send(&next, 1, MPI_LONG, st.MPI_SOURCE, tag, MPI_COMM_WORLD);
    if (tag == TAG_WORK)
      ++next;
    else
      --active;
  }
}

static void farm_worker(void) {
  for (;;) {
    long k;
    MPI_Status st;
    MPI_Recv(&k, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG == TAG_STOP) return;
    Sums s = {0};
    ep_batch(k, &s);
    MPI_Send(&s, 2 + NQ, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char cls = npb_class(argc, argv, rank);
  const int farm = strcmp(npb_variant(argc, argv), "farm") == 0;
  npb_require(!farm || size >= 2, rank, "ep", "the farm needs 2 ranks or more");
  const int m = cls == 'S' ? 24 : cls == 'W' ? 25 : 28;
  const long batches = 1L << (m - MK);
  const double sx_ref = cls == 'S'   ? -3.247834652034740e+3
                        : cls == 'W' ? -2.863319731645753e+3
                                     : -4.295875165629892e+3;
  const double sy_ref = cls == 'S'   ? -6.958407078382297e+3
                        : cls == 'W' ? -6.320053679109499e+3
                                     : -1.580732573678431e+4;

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  Sums mine = {0}, total = {0};
  if (farm) {
    if (rank == 0)
      farm_master(batches, size, &mine);
    else
      farm_worker();
  } else {
    for (long k = rank * batches / size; k < (rank + 1) * batches / size; ++k)
      ep_batch(k, &mine);
  }
  MPI_Reduce(&mine, &total, 2 + NQ, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  const double t = npb_max_time(MPI_Wtime() - t0);

  if (rank == 0) {
    const double eps = 1e-8;
    const int ok =
        fabs((total.sx - sx_ref) / sx_ref) <= eps && fabs((total.sy - sy_ref) / sy_ref) <= eps;
    double gc = 0;
    for (int i = 0; i < NQ; ++i)
      gc += total.q[i];
    printf(" EP Benchmark Results:\n CPU Time = %10.4f\n N = 2^%5d\n No. Gaussian Pairs = %15.0f\n",
           t, m, gc);
    printf(" Sums = %25.15e %25.15e\n Counts:\n", total.sx, total.sy);
    for (int i = 0; i < NQ; ++i)
      printf("%3d%15.0f\n", i, total.q[i]);
    char sz[32];
    snprintf(sz, sizeof sz, "%ld", 1L << (m + 1));
    npb_print_results(farm ? "EP (farm)" : "EP", cls, sz, 0, size, t, ldexp(1.0, m + 1) / t / 1e6,
                      "Random numbers generated", ok);
  }
  MPI_Finalize();
  return 0;
}
