/* Memory folding and compute sampling (docs/large-scale.md), with exact expectations.
 *   large_scale fold MIB [TOUCH_MIB]
 *                              every rank folds MIB MiB with MPISIM_SHARED_MALLOC and writes
 *                              every page of its first TOUCH_MIB MiB (default all) and one byte
 *                              in every further MiB; rank 1 checks that it sees rank 0's write
 *   large_scale auto MIB       the same with plain malloc (run with MPISIM_AUTO_SHARED_MALLOC),
 *                              plus small blocks that must stay private, calloc and realloc
 *   large_scale badfree        MPISIM_SHARED_FREE of a pointer it did not allocate
 *   large_scale sample local|global ITERATIONS THRESHOLD
 *   large_scale warmup ITERATIONS THRESHOLD
 *                              10 bodies charging 1, 2, 1, 2, ... ms; prints this rank's body
 *                              executions and rank 0's clock, and the total of executions */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <mpisim.h>

static int rank, size;

/* Writes every page of the first `touched` bytes of `p` and a byte in each further MiB (a page
 * fault costs microseconds: 1 000 ranks cannot fault in 64 GiB in a test); rank 0 leaves a mark
 * at the start that the others must then see. */
static void touch_and_check(char* p, size_t bytes, size_t touched) {
  for (size_t at = 0; at < bytes; at += at < touched ? 4096 : 1 << 20)
    p[at] = (char)rank;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) memcpy(p, "folded", 7);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    printf("rank 1 sees rank 0's write: %s\n", strcmp(p, "folded") == 0 ? "yes" : "no");
  MPISIM_Compute(0.001);
  MPI_Barrier(MPI_COMM_WORLD);
}

static int fold(size_t mib, size_t touch_mib) {
  char* p = MPISIM_SHARED_MALLOC(mib << 20);
  if (!p) return 1;
  touch_and_check(p, mib << 20, touch_mib << 20);
  MPISIM_SHARED_FREE(p);
  return 0;
}

static int auto_fold(size_t mib) {
  int* small = malloc(100 * sizeof(int)); /* below the threshold: private */
  for (int i = 0; i < 100; ++i)
    small[i] = rank;
  char* p = malloc(mib << 20);
  char* zeroed = calloc(mib << 20, 1);
  char* grown = malloc(16);
  strcpy(grown, "kept");
  grown = realloc(grown, 2 << 20); /* becomes folded: its first bytes are copied */
  int kept = strcmp(grown, "kept") == 0;
  touch_and_check(p, mib << 20, mib << 20);
  touch_and_check(zeroed, mib << 20, mib << 20);
  int private_ok = kept;
  for (int i = 0; i < 100; ++i)
    private_ok &= small[i] == rank;
  int all_ok = 0;
  MPI_Allreduce(&private_ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) printf("small blocks private and realloc copied: %s\n", all_ok ? "yes" : "no");
  free(grown);
  free(zeroed);
  free(p);
  free(small);
  return 0;
}

static int sample(int global, int iterations, double threshold) {
  int executed = 0;
  for (int i = 0; i < 10; ++i) {
    if (global) {
      MPISIM_SAMPLE_GLOBAL(iterations, threshold) {
        MPISIM_Compute(0.001 * (1 + i % 2));
        ++executed;
      }
    } else {
      MPISIM_SAMPLE_LOCAL(iterations, threshold) {
        MPISIM_Compute(0.001 * (1 + i % 2));
        ++executed;
      }
    }
  }
  if (rank == 0) printf("rank 0 ran %d bodies; clock %lld ps\n", executed, MPISIM_Clock_ps());
  int total = 0;
  MPI_Reduce(&executed, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("bodies run by all ranks: %d\n", total);
  return 0;
}

/* A kernel whose first execution is 7 times slower (it touches its array for the first time),
 * then 1 ms: 100 bodies take 106 ms, sampled or not. */
static int warmup(int iterations, double threshold) {
  int executed = 0;
  static int touched;
  for (int i = 0; i < 100; ++i) {
    MPISIM_SAMPLE_LOCAL(iterations, threshold) {
      MPISIM_Compute(touched ? 0.001 : 0.007);
      touched = 1;
      ++executed;
    }
  }
  if (rank == 0) printf("rank 0 ran %d bodies; clock %lld ps\n", executed, MPISIM_Clock_ps());
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = 2;
  if (argc >= 3 && strcmp(argv[1], "fold") == 0)
    rc = fold((size_t)atol(argv[2]), (size_t)atol(argc >= 4 ? argv[3] : argv[2]));
  if (argc >= 3 && strcmp(argv[1], "auto") == 0) rc = auto_fold((size_t)atol(argv[2]));
  if (argc >= 2 && strcmp(argv[1], "badfree") == 0) {
    int x = 0;
    MPISIM_SHARED_FREE(&x);
    rc = 0;
  }
  if (argc >= 4 && strcmp(argv[1], "warmup") == 0) rc = warmup(atoi(argv[2]), atof(argv[3]));
  if (argc >= 5 && strcmp(argv[1], "sample") == 0)
    rc = sample(strcmp(argv[2], "global") == 0, atoi(argv[3]), atof(argv[4]));
  MPI_Finalize();
  return rc;
}
