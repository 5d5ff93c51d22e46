/* MPI_Comm_split as test suites drive it at 12 ranks: splits by several colors with keys that
 * reverse or tie the order, a color only some ranks use and MPI_UNDEFINED for the others, splits
 * of split communicators (nested), and many splits of two parents in a loop with frees. Each new
 * communicator's size, the caller's rank in it (from the key order, ties broken by the parent's
 * rank) and an Allreduce over it are checked against what MPI defines; MPICH gives 0 failed checks
 * too. */
#include <mpi.h>
#include <stdio.h>

/* Checks a communicator made by a split of `parent` with these colors and keys of every rank of
 * the parent (indexed by parent rank). */
static int check(MPI_Comm parent, MPI_Comm made, const int* colors, const int* keys) {
  int prank, psize, errors = 0;
  MPI_Comm_rank(parent, &prank);
  MPI_Comm_size(parent, &psize);
  if (colors[prank] == MPI_UNDEFINED) return made != MPI_COMM_NULL;
  int want_size = 0, want_rank = 0, want_sum = 0;
  for (int r = 0; r < psize; ++r) {
    if (colors[r] != colors[prank]) continue;
    ++want_size;
    want_sum += r;
    if (keys[r] < keys[prank] || (keys[r] == keys[prank] && r < prank)) ++want_rank;
  }
  int size = -1, rank = -1, sum = -1;
  MPI_Comm_size(made, &size);
  MPI_Comm_rank(made, &rank);
  MPI_Allreduce(&prank, &sum, 1, MPI_INT, MPI_SUM, made);
  errors += size != want_size;
  errors += rank != want_rank;
  errors += sum != want_sum;
  return errors;
}

/* Splits `parent` by color(rank, size) and key(rank, size), checks and frees the result. */
static int split(MPI_Comm parent, int (*color)(int, int), int (*key)(int, int)) {
  int prank, psize;
  MPI_Comm_rank(parent, &prank);
  MPI_Comm_size(parent, &psize);
  int colors[64], keys[64];
  for (int r = 0; r < psize; ++r) {
    colors[r] = color(r, psize);
    keys[r] = key(r, psize);
  }
  MPI_Comm made;
  MPI_Comm_split(parent, colors[prank], keys[prank], &made);
  const int errors = check(parent, made, colors, keys);
  if (made != MPI_COMM_NULL) MPI_Comm_free(&made);
  return errors;
}

static int mod3(int r, int n) {
  (void)n;
  return r % 3;
}
static int quarter(int r, int n) {
  return r / ((n + 3) / 4);
}
static int one_color(int r, int n) {
  (void)r;
  (void)n;
  return 7;
}
static int some_undefined(int r, int n) {
  (void)n;
  return r % 4 == 1 ? MPI_UNDEFINED : r % 2;
}
static int reverse(int r, int n) {
  return n - r;
}
static int same(int r, int n) {
  (void)r;
  (void)n;
  return 0;
}
static int negative(int r, int n) {
  (void)n;
  return -r * 3 % 5;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int (*colors[])(int, int) = {mod3, quarter, one_color, some_undefined};
  int (*keys[])(int, int) = {reverse, same, negative};
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < 3; ++k)
      errors += split(MPI_COMM_WORLD, colors[c], keys[k]);

  /* Nested: split the thirds again, by halves of each third. */
  MPI_Comm third;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &third);
  for (int c = 0; c < 4; ++c)
    errors += split(third, colors[c], keys[c % 3]);

  /* Many in a row on two parents, each freed: context ids come back. */
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  for (int i = 0; i < 30; ++i)
    errors += split(i % 2 ? dup : third, colors[i % 4], keys[i % 3]);

  MPI_Comm_free(&dup);
  MPI_Comm_free(&third);
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("comm_split_many: %d ranks, %d failed checks\n", size, total);
  MPI_Finalize();
  return 0;
}
