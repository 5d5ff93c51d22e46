/* Globals named in OpenMP clauses (docs/privatization.md, OpenMP): each rank's own copy in a
 * reduction, firstprivate, lastprivate and private clause of parallel directives, in shared(...)
 * and under default(none); a worksharing loop inside a reduction region; every result depends
 * on the rank. */
#include <mpi.h>
#include <stdio.h>

#define N 1000

double total;             /* reduction: starts at the rank's own value */
int offset = 3;           /* firstprivate: each rank sets its own before the loop */
int last_index = -1;      /* lastprivate */
int scratch;              /* private: the rank's copy is left as it was */
long hits;                /* shared, written atomically by the team */
int scale = 1;            /* read under default(none) */
static double weights[N]; /* shared without a clause */

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  total = rank;
  offset = 3 + rank;
  scratch = 100 + rank;
  scale = rank + 1;
  for (int i = 0; i < N; ++i)
    weights[i] = 0.5 * i;

#pragma omp parallel for reduction(+ : total) firstprivate(offset) lastprivate(last_index) private(scratch)
  for (int i = 0; i < N; ++i) {
    scratch = i % 7 + offset;
    total += weights[i] + scratch;
    last_index = 2 * i + offset;
  }

#pragma omp parallel for shared(weights, hits) reduction(+ : total)
  for (int i = 0; i < N; ++i) {
    total += weights[i] > 100.0;
#pragma omp atomic
    hits += 1;
  }

#pragma omp parallel default(none) shared(hits, scale)
  {
#pragma omp atomic
    hits += scale;
  }

#pragma omp parallel reduction(+ : total)
  {
#pragma omp for
    for (int i = 0; i < N; ++i)
      total += 1.0;
  }

  printf("rank %d: total %.1f, last %d, offset %d, scratch %d, hits %ld\n", rank, total, last_index,
         offset, scratch, hits);
  MPI_Finalize();
  return 0;
}
