/* A request-based one-sided operation overlaps the origin's work (docs/model.md, One-sided
 * communication): rank 0 puts N doubles into rank 1's window with MPI_Rput, computes X
 * (MPISIM_Compute), then waits. The wait must end at max(call + X, flush), to the picosecond,
 * where "call" is what MPI_Rput took and "flush" what MPI_Put + MPI_Win_flush of the same data
 * take (which MPI_Rput + MPI_Wait must equal). Then an MPI_Rget overlapped the same way gets the
 * data, an MPI_Win_flush completes an MPI_Rput never waited for, and an exclusive lock epoch
 * starts with MPI_Rput and MPI_Rget in flight together; the target checks what it holds. */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>

enum { N = 4096 };

static double window_data[N], out[N], in[N];

static void report(const char* what, long long took, long long expected) {
  printf("%s: took %lld ps, expected %lld ps: %s\n", what, took, expected,
         took == expected ? "equal" : "DIFFERENT");
}

/* MPI_Rput, `compute` ps of work, MPI_Wait: what it took; `call` gets what MPI_Rput took and
 * `charged` the compute time charged. */
static long long overlapped(MPI_Win win, long long compute, long long* call, long long* charged) {
  MPI_Request rq;
  const long long start = MPISIM_Clock_ps();
  MPI_Rput(out, N, MPI_DOUBLE, 1, 0, N, MPI_DOUBLE, win, &rq);
  *call = MPISIM_Clock_ps() - start;
  const long long before = MPISIM_Clock_ps();
  if (compute > 0) MPISIM_Compute((double)compute * 1e-12);
  *charged = MPISIM_Clock_ps() - before;
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  return MPISIM_Clock_ps() - start;
}

static long long max_of(long long a, long long b) {
  return a > b ? a : b;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win win;
  MPI_Win_create(window_data, sizeof window_data, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &win);
  for (int i = 0; i < N; ++i)
    out[i] = i * 0.5;
  if (rank == 0) {
    MPI_Win_lock_all(0, win);
    MPI_Put(out, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win); /* takes the lock */
    MPI_Win_flush(1, win);

    long long start = MPISIM_Clock_ps();
    MPI_Put(out, N, MPI_DOUBLE, 1, 0, N, MPI_DOUBLE, win);
    MPI_Win_flush(1, win);
    const long long flush = MPISIM_Clock_ps() - start;
    long long call, charged;
    report("MPI_Rput + MPI_Wait against MPI_Put + MPI_Win_flush",
           overlapped(win, 0, &call, &charged), flush);
    const long long computes[] = {flush / 4, flush - call, 3 * flush};
    const char* names[] = {"compute of a quarter of the flush", "compute until the reply",
                           "compute of three flushes"};
    for (int k = 0; k < 3; ++k) {
      const long long took = overlapped(win, computes[k], &call, &charged);
      report(names[k], took, max_of(call + charged, flush));
    }

    /* MPI_Rget overlapped: the data is there after the wait. */
    MPI_Request rq;
    start = MPISIM_Clock_ps();
    MPI_Rget(in, N, MPI_DOUBLE, 1, 0, N, MPI_DOUBLE, win, &rq);
    call = MPISIM_Clock_ps() - start;
    MPISIM_Compute(3 * (double)flush * 1e-12);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    int wrong = 0;
    for (int i = 0; i < N; ++i)
      wrong += in[i] != i * 0.5;
    printf("MPI_Rget overlapped: %d wrong values, the wait cost %lld ps\n", wrong,
           MPISIM_Clock_ps() - start - call - 3 * flush);

    /* A flush completes an MPI_Rput never waited for: the wait after it costs nothing. */
    for (int i = 0; i < N; ++i)
      out[i] = 2.0 * i;
    MPI_Rput(out, N, MPI_DOUBLE, 1, 0, N, MPI_DOUBLE, win, &rq);
    MPI_Win_flush(1, win);
    start = MPISIM_Clock_ps();
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    printf("wait after MPI_Win_flush: %lld ps\n", MPISIM_Clock_ps() - start);
    MPI_Win_unlock_all(win);

    /* A new epoch whose first operations are requests: the lock comes with the first. */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    const double one = 1.0;
    MPI_Request two[2];
    MPI_Status sts[2];
    MPI_Rput(&one, 1, MPI_DOUBLE, 1, 7, 1, MPI_DOUBLE, win, &two[0]);
    MPI_Rget(in, 2, MPI_DOUBLE, 1, 7, 2, MPI_DOUBLE, win, &two[1]);
    MPI_Waitall(2, two, sts);
    MPI_Win_unlock(1, win);
    printf("exclusive epoch of requests: got %.1f %.1f\n", in[0], in[1]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    int wrong = 0;
    for (int i = 0; i < N; ++i)
      wrong += window_data[i] != (i == 7 ? 1.0 : 2.0 * i);
    printf("target: %d wrong values\n", wrong);
  }
  printf("rank %d: clock %lld ps\n", rank, MPISIM_Clock_ps()); /* for invariant.py */
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
