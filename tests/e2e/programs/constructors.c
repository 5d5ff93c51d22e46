/* Constructor and destructor functions, as libraries and codes use them to fill tables
 * before main: they run once in every process of a real run, here once per rank on the
 * rank's own globals. */
#include <mpi.h>
#include <stdio.h>

static double table[16];
static int built;
static int rank_seen = -1;
int order[3];
int ordered;

void declared_first(void) __attribute__((constructor));

__attribute__((constructor)) static void build_table(void) {
  for (int i = 0; i < 16; ++i)
    table[i] = i * 0.5;
  built++;
  order[ordered++] = 1;
}

void declared_first(void) {
  order[ordered++] = 2;
}

#define AT_EXIT __attribute__((destructor))
AT_EXIT static void report(void) {
  printf("constructors: destructor of rank %d built %d\n", rank_seen, built);
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  rank_seen = rank;
  table[rank % 16] += 100; /* this rank's copy only */
  double sum = 0;
  for (int i = 0; i < 16; ++i)
    sum += table[i];
  MPI_Barrier(MPI_COMM_WORLD);
  printf("constructors: rank %d built %d ordered %d sum %g\n", rank, built, ordered, sum);
  MPI_Finalize();
  return 0;
}
