/* The time each rank spends in each collective of benchmarks/npb/is.c's timed section (from its
 * MPI_Barrier to the MPI_Reduce of npb_max_time), summed over the ten iterations; rank 0 prints
 * the least, mean and largest sum over the ranks. Linked into IS's build under both simulators
 * (docs/results.md, section 3), it splits a difference in IS's time by MPI call. SMPI charges
 * each MPI_Wtime 10 ns (smpi/wtime), so its figures carry 20 ns per call more than mpisim's. */
#include <mpi.h>
#include <stdio.h>

enum { ALLREDUCE_TEST, ALLREDUCE_BUCKETS, ALLTOALL, ALLTOALLV, EXSCAN, TIMED, KINDS };
static const char* const names[KINDS] = {"MPI_Allreduce, 5 int", "MPI_Allreduce, buckets",
                                         "MPI_Alltoall, 1 int",  "MPI_Alltoallv, keys",
                                         "MPI_Exscan, 1 long",   "timed section"};
static enum { BEFORE, TIMING, AFTER } phase;
static double spent[KINDS], section_start;

/* Runs `call`, adding its duration to `kind` inside the timed section. */
#define TIME_CALL(kind, call)                                                                      \
  do {                                                                                             \
    const double start = PMPI_Wtime();                                                             \
    const int err = call;                                                                          \
    if (phase == TIMING) spent[kind] += PMPI_Wtime() - start;                                      \
    return err;                                                                                    \
  } while (0)

int MPI_Barrier(MPI_Comm comm) {
  const int err = PMPI_Barrier(comm);
  if (phase == BEFORE) {
    phase = TIMING;
    section_start = PMPI_Wtime();
  }
  return err;
}

int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  /* IS's first allreduce carries its 5 test keys, the second its bucket counts. */
  TIME_CALL(n == 5 ? ALLREDUCE_TEST : ALLREDUCE_BUCKETS, PMPI_Allreduce(s, r, n, t, op, comm));
}

int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                 MPI_Comm comm) {
  TIME_CALL(ALLTOALL, PMPI_Alltoall(s, sn, st, r, rn, rt, comm));
}

int MPI_Alltoallv(const void* s, const int* sn, const int* sd, MPI_Datatype st, void* r,
                  const int* rn, const int* rd, MPI_Datatype rt, MPI_Comm comm) {
  TIME_CALL(ALLTOALLV, PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, comm));
}

int MPI_Exscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  TIME_CALL(EXSCAN, PMPI_Exscan(s, r, n, t, op, comm));
}

int MPI_Reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
  if (phase == TIMING) { /* npb_max_time: the timed section has ended */
    phase = AFTER;
    spent[TIMED] = PMPI_Wtime() - section_start;
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    for (int k = 0; k < KINDS; ++k) {
      double least, mean, largest;
      PMPI_Reduce(&spent[k], &least, 1, MPI_DOUBLE, MPI_MIN, 0, comm);
      PMPI_Reduce(&spent[k], &mean, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
      PMPI_Reduce(&spent[k], &largest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
      if (rank == 0)
        printf("is_call_times %-24s least %8.3f mean %8.3f largest %8.3f us\n", names[k],
               least * 1e6, mean / size * 1e6, largest * 1e6);
    }
  }
  return PMPI_Reduce(s, r, n, t, op, root, comm);
}
