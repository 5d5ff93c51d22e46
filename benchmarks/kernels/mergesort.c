/* Parallel merge sort, as in the PUPPET thesis: every rank sorts its share of N integers, then
 * the ranks merge pairwise up a binary tree. At step s, a rank whose lowest set bit is s sends
 * its sorted run to rank - 2^s, which merges it into its own; rank 0 ends with the whole array
 * and checks it. The partners of every step differ in one bit of their rank: the pattern is a
 * subset of a hypercube, so a hypercube network serves it with one link per message. (PUPPET
 * sorted each share with bubble sort to make compute large; this sorts it with merge sort.)
 * An ordinary MPI program: it knows nothing of mpisim.
 * usage: mergesort [N]  (default 10000, the size of PUPPET's ring-versus-hypercube study) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many of n integers rank r of p holds at the start. */
static int share(int n, int p, int r) {
  return n / p + (r < n % p ? 1 : 0);
}

/* How many integers ranks first .. first + count - 1 hold together. */
static int run_length(int n, int p, int first, int count) {
  int total = 0;
  for (int r = first; r < first + count && r < p; ++r)
    total += share(n, p, r);
  return total;
}

static void merge(const int* a, int na, const int* b, int nb, int* out) {
  int i = 0, j = 0, k = 0;
  while (i < na && j < nb)
    out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
  while (i < na)
    out[k++] = a[i++];
  while (j < nb)
    out[k++] = b[j++];
}

/* Bottom-up merge sort of v[0..n) using tmp as scratch. */
static void sort(int* v, int* tmp, int n) {
  for (int width = 1; width < n; width *= 2) {
    for (int lo = 0; lo < n; lo += 2 * width) {
      const int mid = lo + width < n ? lo + width : n;
      const int hi = lo + 2 * width < n ? lo + 2 * width : n;
      merge(v + lo, mid - lo, v + mid, hi - mid, tmp + lo);
    }
    memcpy(v, tmp, (size_t)n * sizeof *v);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 10000;

  /* Each rank's integers come from its own linear congruential sequence. */
  int mine = share(n, size, rank);
  int* run = malloc((size_t)n * sizeof *run);
  int* other = malloc((size_t)n * sizeof *other);
  int* merged = malloc((size_t)n * sizeof *merged);
  unsigned state = 12345u + 7919u * (unsigned)rank;
  long long checksum = 0;
  for (int i = 0; i < mine; ++i) {
    state = state * 1103515245u + 12345u;
    run[i] = (int)((state >> 8) % 1000000u);
    checksum += run[i];
  }
  long long total_checksum = 0;
  MPI_Reduce(&checksum, &total_checksum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);

  const double t0 = MPI_Wtime();
  sort(run, merged, mine);
  for (int step = 1; step < size; step *= 2) {
    if (rank % (2 * step) == step) {
      MPI_Send(run, mine, MPI_INT, rank - step, 0, MPI_COMM_WORLD);
      break;
    }
    if (rank % (2 * step) == 0 && rank + step < size) {
      const int theirs = run_length(n, size, rank + step, step);
      MPI_Recv(other, theirs, MPI_INT, rank + step, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      merge(run, mine, other, theirs, merged);
      int* t = run;
      run = merged;
      merged = t;
      mine += theirs;
    }
  }
  const double elapsed = MPI_Wtime() - t0;

  int status = 0;
  if (rank == 0) {
    int sorted = mine == n;
    long long sum = 0;
    for (int i = 0; i < mine; ++i) {
      sum += run[i];
      if (i > 0 && run[i - 1] > run[i]) sorted = 0;
    }
    sorted = sorted && sum == total_checksum;
    printf("mergesort: %d integers on %d ranks: %s, time %.6f s (MPI_Wtime)\n", n, size,
           sorted ? "sorted" : "NOT SORTED", elapsed);
    status = sorted ? 0 : 1;
  }
  free(run);
  free(other);
  free(merged);
  MPI_Finalize();
  return status;
}
