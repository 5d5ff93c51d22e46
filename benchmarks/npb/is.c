/* IS (integer sort), after the NPB specification: keys from NPB's generator (each the scaled sum
 * of four uniforms) are ranked ten times by a bucket sort: bucket counts are agreed with
 * MPI_Allreduce, buckets are given to ranks in order, and the keys move with MPI_Alltoallv.
 * Partial verification against NPB's official ranks of five keys in every iteration; full
 * verification of the final order across ranks.
 *
 * usage: is [S|W|A]      (a power of two of ranks) */
#include "npb.h"

enum { MAX_ITERATIONS = 10, TEST_ARRAY_SIZE = 5 };

typedef struct {
  int total_keys_log2, max_key_log2, buckets_log2;
  long test_index[TEST_ARRAY_SIZE], test_rank[TEST_ARRAY_SIZE];
} IsClass;

static const IsClass is_classes[] = {
    {16, 11, 9, {48427, 17148, 23627, 62548, 4431}, {0, 18, 346, 64917, 65463}},
    {20,
     16,
     10,
     {357773, 934767, 875723, 898999, 404505},
     {1249, 11698, 1039987, 1043896, 1048018}},
    {23,
     19,
     10,
     {2112377, 662041, 5336171, 3642833, 4250760},
     {104, 17523, 123928, 8288932, 8388264}},
};

/* Per-rank state; NPB keeps these in globals. */
typedef struct {
  char cls;
  int rank, size;
  long total_keys, num_keys; /* all keys; this rank's share before sorting */
  int max_key, buckets, shift;
  const IsClass* c;
  int* keys;     /* this rank's generated keys */
  int* sorted;   /* keys received for this rank's key range */
  long nsorted;  /* how many */
  int* send_buf; /* keys grouped by bucket */
  int *bucket_size, *bucket_total, *bucket_ptr;
  int *send_count, *send_displ, *recv_count, *recv_displ;
  long* counts;              /* counts of each key value in this rank's range, then prefix sums */
  int min_key, max_key_mine; /* this rank's key range (empty when min > max) */
  long lesser;               /* keys on lower ranks */
  int passed;
} Is;

/* The keys of this rank: numbers 4 num_keys rank + 1 ... of the sequence, four per key. */
static void create_keys(Is* s) {
  double seed = npb_skip(NPB_SEED, (uint64_t)4 * s->num_keys * s->rank);
  const double k = s->max_key / 4;
  for (long i = 0; i < s->num_keys; ++i) {
    double x = randlc(&seed, NPB_A);
    x += randlc(&seed, NPB_A);
    x += randlc(&seed, NPB_A);
    x += randlc(&seed, NPB_A);
    s->keys[i] = (int)(k * x);
  }
}

/* Checks the ranks of the five test keys whose values fall in this rank's range. */
static void partial_verify(Is* s, int iteration, const int* test_vals) {
  for (int i = 0; i < TEST_ARRAY_SIZE; ++i) {
    const int k = test_vals[i];
    if (k < s->min_key || k > s->max_key_mine) continue;
    const long rank = s->lesser + (k - 1 >= s->min_key ? s->counts[k - 1 - s->min_key] : 0);
    const long ref = s->c->test_rank[i];
    long expected;
    switch (s->cls) {
    case 'S':
      expected = i <= 2 ? ref + iteration : ref - iteration;
      break;
    case 'W':
      expected = i < 2 ? ref + (iteration - 2) : ref - iteration;
      break;
    default:
      expected = i <= 2 ? ref + (iteration - 1) : ref - (iteration - 1);
      break;
    }
    if (rank == expected)
      ++s->passed;
    else
      printf("Failed partial verification: iteration %d, test key %d (value %d): rank %ld, "
             "expected %ld\n",
             iteration, i, k, rank, expected);
  }
}

static void rank_keys(Is* s, int iteration) {
  /* NPB changes two keys per iteration, on the first rank's share. */
  if (s->rank == 0) {
    s->keys[iteration] = iteration;
    s->keys[iteration + MAX_ITERATIONS] = s->max_key - iteration;
  }
  int test_vals[TEST_ARRAY_SIZE];
  for (int i = 0; i < TEST_ARRAY_SIZE; ++i) {
    const long gi = s->c->test_index[i], lo = s->num_keys * s->rank;
    test_vals[i] = gi >= lo && gi < lo + s->num_keys ? s->keys[gi - lo] : 0;
  }
  MPI_Allreduce(MPI_IN_PLACE, test_vals, TEST_ARRAY_SIZE, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  /* Group the keys by bucket. */
  memset(s->bucket_size, 0, sizeof(int) * s->buckets);
  for (long i = 0; i < s->num_keys; ++i)
    ++s->bucket_size[s->keys[i] >> s->shift];
  s->bucket_ptr[0] = 0;
  for (int b = 1; b < s->buckets; ++b)
    s->bucket_ptr[b] = s->bucket_ptr[b - 1] + s->bucket_size[b - 1];
  for (long i = 0; i < s->num_keys; ++i)
    s->send_buf[s->bucket_ptr[s->keys[i] >> s->shift]++] = s->keys[i];
  MPI_Allreduce(s->bucket_size, s->bucket_total, s->buckets, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  /* Rank j takes the buckets that bring the running total to (j + 1) num_keys. */
  long acc = 0;
  int b = 0, my_lo = 0, my_hi = 0;
  for (int j = 0; j < s->size; ++j) {
    const int lo = b;
    long local = 0;
    while (b < s->buckets && (j == s->size - 1 || acc < (long)(j + 1) * s->num_keys)) {
      acc += s->bucket_total[b];
      local += s->bucket_size[b];
      ++b;
    }
    s->send_count[j] = (int)local;
    if (j == s->rank) {
      my_lo = lo;
      my_hi = b;
    }
  }
  s->send_displ[0] = 0;
  for (int j = 1; j < s->size; ++j)
    s->send_displ[j] = s->send_displ[j - 1] + s->send_count[j - 1];
  MPI_Alltoall(s->send_count, 1, MPI_INT, s->recv_count, 1, MPI_INT, MPI_COMM_WORLD);
  s->recv_displ[0] = 0;
  for (int j = 1; j < s->size; ++j)
    s->recv_displ[j] = s->recv_displ[j - 1] + s->recv_count[j - 1];
  s->nsorted = s->recv_displ[s->size - 1] + s->recv_count[s->size - 1];
  s->sorted = realloc(s->sorted, sizeof(int) * (s->nsorted + 1));
  MPI_Alltoallv(s->send_buf, s->send_count, s->send_displ, MPI_INT, s->sorted, s->recv_count,
                s->recv_displ, MPI_INT, MPI_COMM_WORLD);

  /* Count each key value of this rank's range; prefix sums give ranks within it. */
  s->min_key = my_lo << s->shift;
  s->max_key_mine = (my_hi << s->shift) - 1;
  const long span = s->max_key_mine - s->min_key + 1;
  for (long v = 0; v < span; ++v)
    s->counts[v] = 0;
  for (long i = 0; i < s->nsorted; ++i)
    ++s->counts[s->sorted[i] - s->min_key];
  for (long v = 1; v < span; ++v)
    s->counts[v] += s->counts[v - 1];
  long mine = s->nsorted;
  s->lesser = 0;
  MPI_Exscan(&mine, &s->lesser, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (s->rank == 0) s->lesser = 0;
  partial_verify(s, iteration, test_vals);
}

/* Sorts this rank's keys by their counts and checks the order, also across rank boundaries. */
static int full_verify(Is* s) {
  int* out = malloc(sizeof(int) * (s->nsorted + 1));
  for (long i = 0; i < s->nsorted; ++i) {
    const int v = s->sorted[i];
    out[--s->counts[v - s->min_key]] = v;
  }
  long bad = 0;
  for (long i = 1; i < s->nsorted; ++i)
    if (out[i - 1] > out[i]) ++bad;
  /* The largest key of the rank below must not exceed this rank's smallest. */
  int last = s->nsorted ? out[s->nsorted - 1] : -1, below = -1;
  MPI_Sendrecv(&last, 1, MPI_INT, s->rank + 1 < s->size ? s->rank + 1 : MPI_PROC_NULL, 7, &below, 1,
               MPI_INT, s->rank > 0 ? s->rank - 1 : MPI_PROC_NULL, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  /* A rank with no keys passes the largest key below it on. */
  if (s->nsorted && below > out[0]) ++bad;
  long total = 0, all_bad = 0;
  MPI_Allreduce(&s->nsorted, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  free(out);
  if (s->rank == 0 && (all_bad || total != s->total_keys))
    printf("Full verification failed: %ld keys out of order, %ld keys of %ld\n", all_bad, total,
           s->total_keys);
  return all_bad == 0 && total == s->total_keys;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Is s = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.size);
  s.cls = npb_class(argc, argv, s.rank);
  s.c = &is_classes[s.cls == 'S' ? 0 : s.cls == 'W' ? 1 : 2];
  s.total_keys = 1L << s.c->total_keys_log2;
  s.max_key = 1 << s.c->max_key_log2;
  s.buckets = 1 << s.c->buckets_log2;
  s.shift = s.c->max_key_log2 - s.c->buckets_log2;
  npb_require(npb_is_pow2(s.size) && s.size <= s.buckets, s.rank, "is",
              "the rank count must be a power of two, at most the number of buckets");
  s.num_keys = s.total_keys / s.size;
  s.keys = malloc(sizeof(int) * s.num_keys);
  s.send_buf = malloc(sizeof(int) * s.num_keys);
  s.counts = malloc(sizeof(long) * s.max_key);
  s.bucket_size = malloc(sizeof(int) * s.buckets);
  s.bucket_total = malloc(sizeof(int) * s.buckets);
  s.bucket_ptr = malloc(sizeof(int) * s.buckets);
  s.send_count = malloc(sizeof(int) * s.size);
  s.send_displ = malloc(sizeof(int) * s.size);
  s.recv_count = malloc(sizeof(int) * s.size);
  s.recv_displ = malloc(sizeof(int) * s.size);
  create_keys(&s);

  rank_keys(&s, 1); /* untimed, as in NPB; the first iteration repeats its key changes */
  s.passed = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int it = 1; it <= MAX_ITERATIONS; ++it)
    rank_keys(&s, it);
  const double t = npb_max_time(MPI_Wtime() - t0);
  const int full = full_verify(&s);
  int passed = 0;
  MPI_Reduce(&s.passed, &passed, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (s.rank == 0) {
    char sz[32];
    snprintf(sz, sizeof sz, "%ld", s.total_keys);
    npb_print_results("IS", s.cls, sz, MAX_ITERATIONS, s.size, t,
                      (double)MAX_ITERATIONS * s.total_keys / t / 1e6, "keys ranked",
                      full && passed == TEST_ARRAY_SIZE * MAX_ITERATIONS);
  }
  free(s.keys);
  free(s.send_buf);
  free(s.sorted);
  free(s.counts);
  free(s.bucket_size);
  free(s.bucket_total);
  free(s.bucket_ptr);
  free(s.send_count);
  free(s.send_displ);
  free(s.recv_count);
  free(s.recv_displ);
  MPI_Finalize();
  return 0;
}
