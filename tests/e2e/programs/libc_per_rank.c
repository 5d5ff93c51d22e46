/* The C library state a program uses per rank, in the style of an HPC code's set-up: options
 * parsed with getopt in every rank, random initial conditions seeded per rank, input lines
 * split with strtok, errno checked after MPI calls. Each rank prints what it sees; in a real
 * MPI run every rank is a process with its own C library state.
 *
 * usage: libc_per_rank FUNCTION [options...]
 *   getopt [-n N] [-v] [files]  parsed before MPI_Init; then getopt_long on a command line
 *                               of its own, restarted with optind = 0. rand, random, drand48, strtok, errno: the function's
 *                               state between MPI calls. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank;

static void sync_ranks(void) {
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Options before MPI_Init, as most codes parse them (the rank is not known yet). */
static void parse_options(int argc, char** argv, char* out, size_t n) {
  int c, count = -1, verbose = 0;
  while ((c = getopt(argc, argv, "n:v")) != -1) {
    if (c == 'n') count = atoi(optarg);
    else if (c == 'v') verbose = 1;
  }
  int len = snprintf(out, n, "n=%d v=%d optind=%d rest:", count, verbose, optind);
  for (int i = optind; i < argc; ++i)
    len += snprintf(out + len, n - (size_t)len, " %s", argv[i]);
}

/* getopt_long after MPI_Init on a command line of its own (a solver's option string),
 * restarted with optind = 0, with an MPI call between two options. */
static void parse_long(void) {
  char* argv[] = {"solver", "--count", "7", "-v", "extra", 0};
  int argc = 5;
  static const struct option longopts[] = {{"count", required_argument, 0, 'n'},
                                           {"verbose", no_argument, 0, 'v'},
                                           {0, 0, 0, 0}};
  int c, count = -1, verbose = 0, seen = 0;
  optind = 0;
  while ((c = getopt_long(argc, argv, "n:v", longopts, 0)) != -1) {
    if (c == 'n') count = atoi(optarg);
    else if (c == 'v') verbose = 1;
    if (++seen == 1) sync_ranks(); /* an MPI call inside the loop, between two options */
  }
  printf("libc_per_rank: rank %d getopt_long: n=%d v=%d optind=%d\n", rank, count, verbose,
         optind);
}

static void test_rand(void) {
  srand(1000u + (unsigned)rank);
  int a = rand();
  sync_ranks();
  int b = rand();
  sync_ranks();
  int c = rand();
  printf("libc_per_rank: rank %d rand: %d %d %d\n", rank, a, b, c);
}

static void test_rand_unseeded(void) {
  int a = rand();
  sync_ranks();
  printf("libc_per_rank: rank %d unseeded rand: %d %d\n", rank, a, rand());
}

static void test_random(void) {
  static char state[64];
  srandom(7u + (unsigned)rank);
  long a = random();
  sync_ranks();
  char* previous = initstate(100u + (unsigned)rank, state, sizeof state);
  long b = random();
  sync_ranks();
  long c = random();
  setstate(previous); /* back to the srandom sequence */
  sync_ranks();
  long d = random();
  printf("libc_per_rank: rank %d random: %ld %ld %ld %ld\n", rank, a, b, c, d);
}

static void test_drand48(void) {
  srand48(42 + rank);
  double a = drand48();
  sync_ranks();
  long b = lrand48();
  sync_ranks();
  long c = mrand48();
  unsigned short seed[3] = {1, 2, (unsigned short)(3 + rank)};
  unsigned short* old = seed48(seed);
  unsigned short was = old[2];
  sync_ranks();
  double d = drand48();
  unsigned short param[7] = {5, 6, (unsigned short)(7 + rank), 0xe66d, 0xdeec, 0x5, 0xb};
  lcong48(param);
  sync_ranks();
  long e = lrand48();
  unsigned short x[3] = {9, 9, (unsigned short)rank};
  double f = erand48(x);
  long g = nrand48(x);
  long h = jrand48(x);
  printf("libc_per_rank: rank %d drand48: %.17g %ld %ld %u %.17g %ld %.17g %ld %ld\n", rank, a,
         b, c, was, d, e, f, g, h);
}

static void test_strtok(void) {
  char line[64];
  snprintf(line, sizeof line, "r%d,alpha%d;beta%d,,gamma%d", rank, rank, rank, rank);
  char* first = strtok(line, ",;");
  sync_ranks();
  char* second = strtok(NULL, ",;");
  sync_ranks();
  char* third = strtok(NULL, ",;");
  char* fourth = strtok(NULL, ",;");
  char* end = strtok(NULL, ",;");
  printf("libc_per_rank: rank %d strtok: %s %s %s %s %s\n", rank, first, second, third, fourth,
         end ? end : "(end)");
}

static void test_errno(void) {
  /* A failed call sets errno; other ranks' calls in between must not change it. */
  errno = 0;
  if (rank % 2 == 0) {
    FILE* f = fopen("/nonexistent/libc_per_rank", "r");
    if (f) fclose(f);
  } else {
    errno = 1000 + rank;
  }
  sync_ranks();
  int e = errno;
  printf("libc_per_rank: rank %d errno: %d\n", rank, e);
}

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  char options[256] = "";
  if (strcmp(what, "getopt") == 0) parse_options(argc - 1, argv + 1, options, sizeof options);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (strcmp(what, "getopt") == 0) {
    printf("libc_per_rank: rank %d getopt: %s\n", rank, options);
    parse_long();
  } else if (strcmp(what, "rand") == 0) {
    test_rand();
  } else if (strcmp(what, "unseeded") == 0) {
    test_rand_unseeded();
  } else if (strcmp(what, "random") == 0) {
    test_random();
  } else if (strcmp(what, "drand48") == 0) {
    test_drand48();
  } else if (strcmp(what, "strtok") == 0) {
    test_strtok();
  } else if (strcmp(what, "errno") == 0) {
    test_errno();
  } else {
    if (rank == 0) fprintf(stderr, "libc_per_rank: unknown function '%s'\n", what);
    MPI_Finalize();
    return 2;
  }
  MPI_Finalize();
  return 0;
}
