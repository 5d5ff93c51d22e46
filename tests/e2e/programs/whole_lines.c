/* Every rank prints lines the three ways C programs commonly do (puts, which gcc also makes of
   printf("%s\n", s); fputs then putchar; printf with arguments), between barriers so that the
   host processes print at the same time. With the output of several host processes merged by
   mpiexec, no line may be cut or joined to another rank's. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int lines = argc > 1 ? atoi(argv[1]) : 300;
  char text[128];
  for (int i = 0; i < lines; ++i) {
    snprintf(text, sizeof text, "rank %d line %d of a line long enough to be cut", rank, i);
    switch (i % 3) {
    case 0:
      puts(text);
      break;
    case 1:
      fputs(text, stdout);
      putchar('\n');
      break;
    default:
      printf("rank %d line %d of a line long enough to be cut\n", rank, i);
    }
    if (i % 25 == 0) MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
