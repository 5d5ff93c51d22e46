/* What the calls that complete several operations, and the probes, leave in status.MPI_ERROR,
 * as MPICH does: MPI_Waitall sets it (MPI_SUCCESS) for each operation that was not null;
 * MPI_Testall, MPI_Waitsome and MPI_Testsome leave it as the program set it unless one operation
 * failed (MPI_ERR_IN_STATUS: then every status has its own code, MPI-4.0 3.7.5); MPI_Probe and
 * MPI_Iprobe set it, MPI_Mprobe and MPI_Improbe leave it, and a probe of MPI_PROC_NULL leaves it.
 * Rank 1 prints each field as "kept" (the program's value), "success" or the error class. */
#include <mpi.h>
#include <stdio.h>

enum { KEPT = 777 };

static const char* what(int e) {
  if (e == KEPT) return "kept";
  if (e == MPI_SUCCESS) return "success";
  int cls;
  MPI_Error_class(e, &cls);
  return cls == MPI_ERR_TRUNCATE ? "truncate" : cls == MPI_ERR_PENDING ? "pending" : "other";
}

static MPI_Status s[2];
static MPI_Request r[2];
static int w[2];

static void reset(void) {
  s[0].MPI_ERROR = s[1].MPI_ERROR = KEPT;
}

static void post(int tag0, int tag1) {
  reset();
  MPI_Irecv(&w[0], 1, MPI_INT, 0, tag0, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&w[1], 1, MPI_INT, 0, tag1, MPI_COMM_WORLD, &r[1]);
}

static void show(const char* call, int e) {
  printf("%s: %s, %s %s\n", call,
         e == MPI_SUCCESS         ? "ok"
         : e == MPI_ERR_IN_STATUS ? "in status"
                                  : "other",
         what(s[0].MPI_ERROR), what(s[1].MPI_ERROR));
}

static void finish(void) {
  for (int i = 0; i < 2; ++i)
    if (r[i] != MPI_REQUEST_NULL) MPI_Wait(&r[i], MPI_STATUS_IGNORE);
}

/* Completes both receives posted with post(), with the call `kind`. */
static int complete_both(char kind) {
  int flag = 0, n, got = 0, idx[2], e = MPI_SUCCESS;
  switch (kind) {
  case 'W':
    return MPI_Waitall(2, r, s);
  case 'T':
    do
      e = MPI_Testall(2, r, &flag, s);
    while (!flag && e == MPI_SUCCESS);
    return e;
  default:
    /* Waitsome or Testsome until both are done; the statuses of the last call are shown. */
    while (got < 2 && e == MPI_SUCCESS) {
      reset();
      e = kind == 'w' ? MPI_Waitsome(2, r, &n, idx, s) : MPI_Testsome(2, r, &n, idx, s);
      got += n == MPI_UNDEFINED ? 2 : n;
    }
    return e;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int v[4] = {1, 2, 3, 4}, flag;
  const char kinds[] = "WTwt";
  const char* names[] = {"MPI_Waitall", "MPI_Testall", "MPI_Waitsome", "MPI_Testsome"};
  if (rank == 0) {
    /* Per kind: two messages that fit, then one too long (tag 10k+1) and one that fits. */
    for (int k = 0; k < 4; ++k) {
      MPI_Send(v, 1, MPI_INT, 1, 10 * k + 1, MPI_COMM_WORLD);
      MPI_Send(v, 1, MPI_INT, 1, 10 * k + 2, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < 4; ++k) {
      MPI_Send(v, 4, MPI_INT, 1, 100 + 10 * k + 1, MPI_COMM_WORLD);
      MPI_Send(v, 1, MPI_INT, 1, 100 + 10 * k + 2, MPI_COMM_WORLD);
    }
    for (int tag = 200; tag < 204; ++tag)
      MPI_Send(v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
  } else {
    char line[64];
    for (int k = 0; k < 4; ++k) {
      post(10 * k + 1, 10 * k + 2);
      show(names[k], complete_both(kinds[k]));
      finish();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < 4; ++k) {
      /* Both messages are there before the receives are posted: the long one fails. MPICH's
       * MPI_Waitall stops at the failure and reports the other pending, which a correct MPI may
       * complete instead, so only the failed status is compared there. */
      MPI_Probe(0, 100 + 10 * k + 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* and so the first too */
      post(100 + 10 * k + 1, 100 + 10 * k + 2);
      const int e = complete_both(kinds[k]);
      if (kinds[k] == 'W') s[1].MPI_ERROR = KEPT;
      snprintf(line, sizeof line, "%s of a truncated message", names[k]);
      show(line, e);
      finish();
    }
    /* Null requests, alone and beside a real one. */
    r[0] = r[1] = MPI_REQUEST_NULL;
    reset();
    show("MPI_Waitall of null requests", MPI_Waitall(2, r, s));
    reset();
    MPI_Testall(2, r, &flag, s);
    show("MPI_Testall of null requests", MPI_SUCCESS);
    reset();
    MPI_Irecv(&w[0], 1, MPI_INT, 0, 200, MPI_COMM_WORLD, &r[0]);
    show("MPI_Waitall of a request and a null one", MPI_Waitall(2, r, s));
    reset();
    MPI_Irecv(&w[1], 1, MPI_INT, 0, 201, MPI_COMM_WORLD, &r[1]);
    do
      MPI_Testall(2, r, &flag, s);
    while (!flag);
    show("MPI_Testall of a null request and one", MPI_SUCCESS);
    /* Probes. */
    MPI_Message m;
    reset();
    MPI_Probe(0, 202, MPI_COMM_WORLD, &s[0]);
    do
      MPI_Iprobe(0, 202, MPI_COMM_WORLD, &flag, &s[1]);
    while (!flag);
    show("MPI_Probe, MPI_Iprobe", MPI_SUCCESS);
    MPI_Recv(w, 1, MPI_INT, 0, 202, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    reset();
    MPI_Mprobe(0, 203, MPI_COMM_WORLD, &m, &s[0]);
    MPI_Mrecv(w, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
    MPI_Send(v, 1, MPI_INT, 1, 204, MPI_COMM_WORLD); /* to itself */
    do
      MPI_Improbe(1, 204, MPI_COMM_WORLD, &flag, &m, &s[1]);
    while (!flag);
    MPI_Mrecv(w, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
    show("MPI_Mprobe, MPI_Improbe", MPI_SUCCESS);
    reset();
    MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &s[0]);
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &s[1]);
    show("MPI_Probe, MPI_Mprobe of MPI_PROC_NULL", MPI_SUCCESS);
    reset();
    MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &s[0]);
    MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &m, &s[1]);
    show("MPI_Iprobe, MPI_Improbe of MPI_PROC_NULL", MPI_SUCCESS);
  }
  MPI_Finalize();
  return 0;
}
