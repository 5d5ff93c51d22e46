/* The standard input is rank 0's, as under mpiexec. usage: stdin_rank0 MODE < input
 *   bcast  rank 0 reads every line (fgets), sums the numbers, and broadcasts the text: every rank
 *          prints the count, the sum and the first line (MPICH's output)
 *   CALL   rank 1 reads the standard input with CALL (fgets, getc, getchar, fread, scanf,
 *          fscanf, getline, read): under MPICH it waits forever; mpisim ends the run naming it */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void read_as(const char* call) {
  char buf[64] = "";
  char* line = NULL;
  size_t size = 0;
  int n = 0;
  if (strcmp(call, "fgets") == 0) n = fgets(buf, sizeof buf, stdin) != NULL;
  if (strcmp(call, "getc") == 0) n = getc(stdin);
  if (strcmp(call, "getchar") == 0) n = getchar();
  if (strcmp(call, "fread") == 0) n = (int)fread(buf, 1, 4, stdin);
  if (strcmp(call, "scanf") == 0) n = scanf("%d", &n);
  if (strcmp(call, "fscanf") == 0) n = fscanf(stdin, "%d", &n);
  if (strcmp(call, "getline") == 0) n = (int)getline(&line, &size, stdin);
  if (strcmp(call, "read") == 0) n = (int)read(0, buf, 4);
  free(line);
  printf("stdin_rank0: rank 1 read with %s: %d\n", call, n);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "bcast";
  if (strcmp(mode, "bcast") == 0) {
    char text[4096] = "";
    if (rank == 0) {
      char line[256];
      size_t used = 0;
      while (fgets(line, sizeof line, stdin) && used + strlen(line) < sizeof text) {
        strcpy(text + used, line);
        used += strlen(line);
      }
    }
    MPI_Bcast(text, sizeof text, MPI_CHAR, 0, MPI_COMM_WORLD);
    int lines = 0;
    long sum = 0;
    for (char* p = strtok(text, "\n"); p; p = strtok(NULL, "\n")) {
      sum += atol(p);
      ++lines;
    }
    printf("stdin_rank0: rank %d has %d lines of rank 0's input, sum %ld\n", rank, lines, sum);
  } else if (rank == 1) {
    read_as(mode);
  }
  MPI_Finalize();
  return 0;
}
