/* The C privatization matrix: every rank writes its rank into each kind of global, waits
 * at a barrier for the others to do the same, and reads its own values back. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "shared.h"

int counter = -1;
double grid[3][4];
struct point points[2] = {{.x = 1, .y = 2}, {.y = 4, .x = 3}};
union number num = {.d = 0.5};
mpistuff_t mpistuff_;
int repeated;

int uninitialized;
static int file_static = 5;
static double file_static_array[2][2] = {{1, 2}, {3, 4}};
volatile int flag;
char buf1[16], buf2[16];
char* tbl[] = {buf1, buf2}; /* pointers to other privatized globals */
int* p = &counter;
struct point* pp = &points[1];
const char* greeting = "hello"; /* string literal */
char text[] = "abc";
const int shared_constant = 42; /* stays shared */

static int twice(int v) {
  return 2 * v;
}
static int thrice(int v) {
  return 3 * v;
}
int (*ops[])(int) = {twice, thrice}; /* table of function pointers */
int (*chosen)(int) = thrice;

static int next_id(void) {
  static int id = 100;    /* function-local static with an initializer */
  static int* self = &id; /* ... and one pointing at it */
  return (*self)++;
}

/* A user-defined reduction that counts its calls in a global: each rank counts the
 * combinations done with its own buffers, wherever the simulator runs them. */
static int op_calls;
static void counted_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i)
    ((int*)inout)[i] += ((int*)in)[i];
  ++op_calls;
}

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    ++checks;                                                                                      \
    if (!(cond)) {                                                                                 \
      ++failures;                                                                                  \
      printf("rank %d: check failed: %s (line %d)\n", rank, #cond, __LINE__);                      \
    }                                                                                              \
  } while (0)

int main(int argc, char** argv) {
  int rank, size, checks = 0, failures = 0, total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* The initial values are those of the source, in every rank. */
  CHECK(counter == -1 && *p == -1 && p == &counter);
  CHECK(points[0].x == 1 && points[1].x == 3 && pp == &points[1]);
  CHECK(num.d == 0.5 && file_static == 5 && file_static_array[1][0] == 3);
  CHECK(tbl[0] == buf1 && tbl[1] == buf2 && strcmp(greeting, "hello") == 0);
  CHECK(strcmp(text, "abc") == 0 && ops[1](2) == 6 && chosen == thrice);
  CHECK(sizeof(grid) == 12 * sizeof(double) && sizeof tbl == 2 * sizeof(char*));

  /* Every rank writes its own rank everywhere. */
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  mpistuff_.np = size;
  other_file_writes(rank);
  uninitialized = rank;
  file_static += rank;
  file_static_array[1][1] *= rank;
  grid[2][3] = rank;
  points[1].y = rank;
  num.i = rank;
  flag = rank;
  snprintf(buf1, sizeof buf1, "r%d", rank);
  tbl[1][0] = (char)('a' + rank % 26);
  *pp = (struct point){rank, -rank};
  text[0] = (char)('A' + rank % 26);
  ops[0] = rank % 2 ? thrice : twice;
  int* q = &uninitialized;
  *q += 1;
  for (int i = 0; i < rank; ++i) {
    next_id();
    bump();
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* ... and reads its own values back. */
  CHECK(other_file_reads(rank) == 0);
  CHECK(counter == rank && *p == rank);
  CHECK(uninitialized == rank + 1);
  CHECK(file_static == 5 + rank && file_static_array[1][1] == 4.0 * rank);
  CHECK(grid[2][3] == rank && grid[0][0] == 0);
  CHECK(points[1].x == rank && points[1].y == -rank && points[0].y == 2);
  CHECK(num.i == rank && flag == rank);
  char expect[16];
  snprintf(expect, sizeof expect, "r%d", rank);
  CHECK(strcmp(tbl[0], expect) == 0 && buf2[0] == 'a' + rank % 26);
  CHECK(text[0] == 'A' + rank % 26 && text[1] == 'b');
  CHECK(ops[0](10) == (rank % 2 ? 30 : 20));
  CHECK(next_id() == 100 + rank && bump() == rank + 1);
  CHECK(me == rank && mpistuff_.np == size);

  /* Privatized variables have one address per rank; constants and the C library's globals
   * have one per host process (compared only under mpisim: processes of a real MPI have
   * their own addresses, and so have the host processes of a simulation: --no-addresses). */
  int addresses_ok = 1;
#ifdef MPISIM_MPI_H
  const int compare = !(argc > 1 && strcmp(argv[1], "--no-addresses") == 0);
  const void* mine[3] = {(const void*)&counter, (const void*)&shared_constant, (const void*)stdout};
  const void* all[3 * 1024];
  if (compare && size <= 1024) {
    MPI_Allgather(mine, 3 * sizeof(void*), MPI_BYTE, all, 3 * sizeof(void*), MPI_BYTE,
                  MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r)
      if (r != rank)
        addresses_ok &=
            all[3 * r] != mine[0] && all[3 * r + 1] == mine[1] && all[3 * r + 2] == mine[2];
  }
#endif
  CHECK(addresses_ok);

  /* Recursive doubling over a power of two ranks: log2(size) combinations in every rank. */
  MPI_Op op;
  MPI_Op_create(counted_sum, 1, &op);
  int one = 1, sum = 0, calls_min = 0, calls_max = 0, log2size = 0;
  while ((1 << log2size) < size)
    ++log2size;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Op_free(&op);
  MPI_Allreduce(&op_calls, &calls_min, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&op_calls, &calls_max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(sum == size);
  CHECK((1 << log2size) != size || (calls_min == log2size && calls_max == log2size));

  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("c_matrix: %d ranks, %d checks per rank, %d failures\n", size, checks, total);
  MPI_Finalize();
  return total != 0;
}
