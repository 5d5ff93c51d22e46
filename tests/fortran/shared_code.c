/* Loaded per rank by mpisimfort: each rank prints whether the code it runs is the one shared
 * copy of the program (mapped from the simulator's memory file) or pages of its own copy, and
 * a global it counts in, which stays its own. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int calls; /* per rank: each copy has its own data */

static const char* code_backing(void) {
  const unsigned long here = (unsigned long)&code_backing;
  static char line[512];
  FILE* maps = fopen("/proc/self/maps", "r");
  if (!maps) return "unknown";
  const char* found = "unmapped";
  while (fgets(line, sizeof line, maps)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && here >= lo && here < hi) {
      found = strstr(line, "memfd:mpisim-program") ? "shared" : "own";
      break;
    }
  }
  fclose(maps);
  return found;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ++calls;
  MPI_Barrier(MPI_COMM_WORLD);
  ++calls;
  printf("shared_code: rank %d runs %s code, calls %d\n", rank, code_backing(), calls);
  MPI_Finalize();
  return 0;
}
