/* Overlapping messages through one NIC, as IMB's Uniband and a gather to one rank post them.
 *   link_bound uniband COUNT BYTES LINK_BYTES_PER_S: rank 0 posts COUNT sends of BYTES to rank 1
 *     at once, rank 1 the receives; both wait.
 *   link_bound incast BYTES LINK_BYTES_PER_S: every rank but the last sends BYTES to the last
 *     at once.
 * Each rank checks what it received, then rank 0 prints the bandwidth the run predicts and
 * whether it is above the link's (what no network can deliver). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char* what) {
  fprintf(stderr, "link_bound: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc < 4 || n < 2) fail("usage: link_bound uniband COUNT BYTES BW | incast BYTES BW");
  const int uniband = strcmp(argv[1], "uniband") == 0;
  const int count = uniband ? atoi(argv[2]) : n - 1;
  const long bytes = atol(argv[uniband ? 3 : 2]);
  const double link = atof(argv[uniband ? 4 : 3]);
  const int sink = uniband ? 1 : n - 1;
  if (count < 1 || bytes < 1) fail("COUNT and BYTES must be positive");
  /* The sink holds every message; a sender its own. */
  const int mine = me == sink ? count : uniband ? (me == 0 ? count : 0) : 1;
  char* buf = malloc((size_t)bytes * (size_t)(mine > 0 ? mine : 1));
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)count);
  int posted = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (me == sink) {
    for (int i = 0; i < count; ++i) {
      const int from = uniband ? 0 : i;
      MPI_Irecv(buf + (size_t)i * (size_t)bytes, (int)bytes, MPI_CHAR, from, i, MPI_COMM_WORLD,
                &reqs[posted++]);
    }
  } else if (uniband ? me == 0 : 1) {
    for (int i = 0; i < (uniband ? count : 1); ++i) {
      char* b = buf + (size_t)i * (size_t)bytes;
      memset(b, (me + i) % 127, (size_t)bytes);
      MPI_Isend(b, (int)bytes, MPI_CHAR, sink, uniband ? i : me, MPI_COMM_WORLD, &reqs[posted++]);
    }
  }
  MPI_Waitall(posted, reqs, MPI_STATUSES_IGNORE);
  if (me == sink)
    for (int i = 0; i < count; ++i) {
      const int value = i % 127; /* uniband: message i of rank 0; incast: rank i's */
      const char* b = buf + (size_t)i * (size_t)bytes;
      if (b[0] != value || b[bytes - 1] != value) fail("a received buffer is wrong");
    }
  double t = MPI_Wtime() - t0, longest;
  MPI_Reduce(&t, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (me == 0) {
    const double rate = (double)bytes * count / longest;
    printf("%s: %d x %ld bytes in %.6f s: %.1f MB/s through a %.1f MB/s link: %s\n", argv[1], count,
           bytes, longest, rate / 1e6, link / 1e6,
           rate <= link * (1 + 1e-9) ? "within the link" : "FASTER THAN THE LINK");
  }
  free(reqs);
  free(buf);
  MPI_Finalize();
  return 0;
}
