/* The C library's sleeps and clocks in simulated time (MPISIM_LIBC_TIME): every rank sleeps
 * with sleep(S), usleep(U) and nanosleep(N ns), which advance its clock without blocking the host
 * process, and measures the sleeps with MPI_Wtime, clock_gettime (monotonic and real-time),
 * gettimeofday and time, and with the process CPU-time clocks (clock, getrusage, times,
 * CLOCK_PROCESS_CPUTIME_ID); rank 0 says whether every rank's calendar started at the same
 * instant (MPISIM_EPOCH). usage: libc_time S U N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

static double seconds(const struct timespec* t) {
  return t->tv_sec + t->tv_nsec * 1e-9;
}

static double user_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const unsigned s = argc > 1 ? (unsigned)atoi(argv[1]) : 10;
  const useconds_t u = argc > 2 ? (useconds_t)atol(argv[2]) : 0;
  const long n = argc > 3 ? atol(argv[3]) : 0;

  struct timespec m0, m1, r0, r1;
  struct timeval g0, g1;
  const double w0 = MPI_Wtime();
  clock_gettime(CLOCK_MONOTONIC, &m0);
  clock_gettime(CLOCK_REALTIME, &r0);
  gettimeofday(&g0, NULL);
  const time_t t0 = time(NULL);
  struct timespec p0, p1;
  struct tms k0, k1;
  const clock_t c0 = clock();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p0);
  const double u0 = user_seconds();
  times(&k0);

  sleep(s);
  usleep(u);
  const struct timespec req = {n / 1000000000, n % 1000000000};
  nanosleep(&req, NULL);

  const double w1 = MPI_Wtime();
  clock_gettime(CLOCK_MONOTONIC, &m1);
  clock_gettime(CLOCK_REALTIME, &r1);
  gettimeofday(&g1, NULL);
  const time_t t1 = time(NULL);
  const clock_t c1 = clock();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p1);
  const double u1 = user_seconds();
  times(&k1);
  long start = (long)t0;
  long* starts = rank == 0 ? malloc(sizeof(long) * (size_t)size) : NULL;
  MPI_Gather(&start, 1, MPI_LONG, starts, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int same = 1;
    for (int i = 1; i < size; ++i)
      same = same && starts[i] == starts[0];
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t0));
    printf("libc_time: %s rank started at %s\n", same ? "every" : "not every", when);
    free(starts);
  }
  if (rank == 0) {
    char year[8];
    strftime(year, sizeof year, "%Y", gmtime(&t1));
    printf("libc_time: %d ranks slept %.6f s by MPI_Wtime, %.6f by CLOCK_MONOTONIC, %.6f by "
           "CLOCK_REALTIME, %.6f by gettimeofday, %ld by time (year %s)\n",
           size, w1 - w0, seconds(&m1) - seconds(&m0), seconds(&r1) - seconds(&r0),
           (g1.tv_sec - g0.tv_sec) + (g1.tv_usec - g0.tv_usec) * 1e-6, (long)(t1 - t0), year);
    printf("libc_time: CPU time %.6f s by clock, %.6f by CLOCK_PROCESS_CPUTIME_ID, %.6f by "
           "getrusage, %.2f by times\n",
           (double)(c1 - c0) / CLOCKS_PER_SEC, seconds(&p1) - seconds(&p0), u1 - u0,
           (double)(k1.tms_utime - k0.tms_utime) / (double)sysconf(_SC_CLK_TCK));
  }
  MPI_Finalize();
  return 0;
}
