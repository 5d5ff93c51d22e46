/* MPI-4.0 persistent collectives: every MPI_*_init once, then three rounds that change the
 * buffers, start the requests (one by one with MPI_Start, or all at once with MPI_Startall) and
 * complete them (MPI_Wait, MPI_Test polling, MPI_Waitall). The derived type and the user
 * operation the requests use are freed right after the init calls: a request keeps what its
 * arguments named. The neighbourhood forms run on a periodic ring. Rank 0 prints one checksum
 * line per rank and round, gathered from all ranks. With the argument "standard" each rank also
 * checks the three that MPICH 4.0.2 gets wrong. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { MAXP = 16, N = 3, ROUNDS = 3, SUMS = 22 };

static void absmax(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; ++i) {
    const int x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];
    b[i] = x > y ? x : y;
  }
}

/* A checksum that sees both the values and where they are. */
static long sum(const int* v, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += (long)v[i] * (i + 1);
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int root = p - 1;
  MPI_Comm ring;
  const int dims[1] = {p}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);

  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Op op_absmax;
  MPI_Op_create(absmax, 1, &op_absmax);

  static int bc[2 * N], in[N], red[N], all[N], scan[N], exscan[N], gat[MAXP * N], gatv[MAXP * N];
  static int scat_src[MAXP * N], scat[N], scatv[N], ag[MAXP * N], agv[MAXP * N];
  static int a2a_in[MAXP * N], a2a[MAXP * N], a2av[MAXP * N], a2aw[MAXP * N];
  static int rs_in[MAXP * N], rs[N], rsb[N], nb_ag[2 * N], nb_agv[2 * N], nb_a2a_in[2 * N],
      nb_a2a[2 * N], nb_a2av[2 * N], nb_a2aw[2 * N];
  int counts[MAXP], displs[MAXP], bytes_displs[MAXP], rs_counts[MAXP], nb_counts[2], nb_displs[2];
  MPI_Datatype types[MAXP], nb_types[2];
  MPI_Aint nb_bytes[2];
  for (int i = 0; i < p; ++i) {
    counts[i] = N;
    displs[i] = i * N;
    bytes_displs[i] = i * N * (int)sizeof(int);
    rs_counts[i] = N;
    types[i] = MPI_INT;
  }
  for (int i = 0; i < 2; ++i) {
    nb_counts[i] = N;
    nb_displs[i] = i * N;
    nb_bytes[i] = i * N * (MPI_Aint)sizeof(int);
    nb_types[i] = MPI_INT;
  }

  enum { STARTED_ONE_BY_ONE = 5 };
  MPI_Request rq[SUMS];
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true"); /* a hint: taken and ignored */
  MPI_Bcast_init(bc, N, pair, 1 % p, MPI_COMM_WORLD, info, &rq[0]);
  MPI_Allreduce_init(in, all, N, MPI_INT, op_absmax, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]);
  MPI_Reduce_init(in, red, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[2]);
  MPI_Scan_init(in, scan, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[3]);
  MPI_Exscan_init(in, exscan, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[4]);
  MPI_Gatherv_init(in, N, MPI_INT, gatv, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &rq[6]);
  MPI_Neighbor_alltoallw_init(nb_a2a_in, nb_counts, nb_bytes, nb_types, nb_a2aw, nb_counts,
                              nb_bytes, nb_types, ring, MPI_INFO_NULL, &rq[7]);
  MPI_Scatterv_init(scat_src, counts, displs, MPI_INT, scatv, N, MPI_INT, root, MPI_COMM_WORLD,
                    MPI_INFO_NULL, &rq[8]);
  MPI_Allgatherv_init(in, N, MPI_INT, agv, counts, displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                      &rq[10]);
  MPI_Alltoall_init(a2a_in, N, MPI_INT, a2a, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[11]);
  MPI_Alltoallv_init(a2a_in, counts, displs, MPI_INT, a2av, counts, displs, MPI_INT, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &rq[12]);
  MPI_Alltoallw_init(a2a_in, counts, bytes_displs, types, a2aw, counts, bytes_displs, types,
                     MPI_COMM_WORLD, MPI_INFO_NULL, &rq[13]);
  MPI_Reduce_scatter_init(rs_in, rs, rs_counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &rq[14]);
  MPI_Reduce_scatter_block_init(rs_in, rsb, N, MPI_INT, MPI_MIN, MPI_COMM_WORLD, MPI_INFO_NULL,
                                &rq[15]);
  MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rq[16]);
  MPI_Neighbor_allgather_init(in, N, MPI_INT, nb_ag, N, MPI_INT, ring, MPI_INFO_NULL, &rq[17]);
  MPI_Neighbor_allgatherv_init(in, N, MPI_INT, nb_agv, nb_counts, nb_displs, MPI_INT, ring,
                               MPI_INFO_NULL, &rq[18]);
  MPI_Neighbor_alltoall_init(nb_a2a_in, N, MPI_INT, nb_a2a, N, MPI_INT, ring, MPI_INFO_NULL,
                             &rq[5]);
  MPI_Neighbor_alltoallv_init(nb_a2a_in, nb_counts, nb_displs, MPI_INT, nb_a2av, nb_counts,
                              nb_displs, MPI_INT, ring, MPI_INFO_NULL, &rq[9]);
  /* MPICH 4.0.2's persistent MPI_Gather, MPI_Allgather and MPI_Scatter are wrong after their
   * first start (Gather's root gets garbage, Allgather the first round's data, Scatter fails
   * with "Invalid communicator"): only with the argument "standard", each rank checks them
   * against the standard's result. */
  const int standard = argc > 1 && strcmp(argv[1], "standard") == 0;
  const int requests = standard ? SUMS : SUMS - 3;
  if (standard) {
    MPI_Gather_init(in, N, MPI_INT, gat, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[19]);
    MPI_Allgather_init(in, N, MPI_INT, ag, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[20]);
    MPI_Scatter_init(scat_src, N, MPI_INT, scat, N, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                     &rq[21]);
  }
  MPI_Info_free(&info);
  MPI_Type_free(&pair);
  MPI_Op_free(&op_absmax);

  long sums[ROUNDS][SUMS];
  int wrong = 0;
  for (int round = 0; round < ROUNDS; ++round) {
    const int base = 100 * (round + 1);
    for (int i = 0; i < 2 * N; ++i) {
      bc[i] = rank == 1 % p ? base + 7 * i : -1;
      nb_a2a_in[i] = base + 10 * rank + i;
    }
    for (int i = 0; i < N; ++i)
      in[i] = (rank % 2 ? -1 : 1) * (base + rank * 3 + i);
    for (int i = 0; i < p * N; ++i) {
      scat_src[i] = base + i * (rank + 1);
      a2a_in[i] = base * rank + i;
      rs_in[i] = base + (i * 7 + rank * 5) % 11;
    }
    /* A few one at a time, each completed at once (the first by polling MPI_Test)... */
    for (int i = 0; i < STARTED_ONE_BY_ONE; ++i) {
      MPI_Start(&rq[i]);
      if (i == 0) {
        int done = 0;
        while (!done)
          MPI_Test(&rq[i], &done, MPI_STATUS_IGNORE);
      } else {
        MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
      }
    }
    /* ... the others all at once. */
    MPI_Startall(requests - STARTED_ONE_BY_ONE, &rq[STARTED_ONE_BY_ONE]);
    MPI_Status statuses[SUMS];
    MPI_Waitall(requests - STARTED_ONE_BY_ONE, &rq[STARTED_ONE_BY_ONE], statuses);
    long* s = sums[round];
    s[0] = sum(bc, 2 * N);
    s[1] = sum(all, N);
    s[2] = rank == root ? sum(red, N) : 0;
    s[3] = sum(scan, N);
    s[4] = rank > 0 ? sum(exscan, N) : 0; /* rank 0's is undefined */
    s[5] = sum(nb_a2a, 2 * N);
    s[6] = rank == 0 ? sum(gatv, p * N) : 0;
    s[7] = sum(nb_a2aw, 2 * N);
    s[8] = sum(scatv, N);
    s[9] = sum(nb_a2av, 2 * N);
    s[10] = sum(agv, p * N);
    s[11] = sum(a2a, p * N);
    s[12] = sum(a2av, p * N);
    s[13] = sum(a2aw, p * N);
    s[14] = sum(rs, N);
    s[15] = sum(rsb, N);
    s[16] = round;
    s[17] = sum(nb_ag, 2 * N);
    s[18] = sum(nb_agv, 2 * N);
    s[19] = s[20] = s[21] = 0;
    for (int r = 0; standard && r < p; ++r)
      for (int i = 0; i < N; ++i) {
        const int v = (r % 2 ? -1 : 1) * (base + r * 3 + i);
        wrong += (rank == root && gat[r * N + i] != v) + (ag[r * N + i] != v);
      }
    for (int i = 0; standard && i < N; ++i)
      wrong += scat[i] != base + rank * N + i;
  }
  for (int i = 0; i < requests; ++i)
    MPI_Request_free(&rq[i]);
  if (standard) {
    printf("rank %d: persistent gather, allgather, scatter: %d wrong elements in %d rounds\n", rank,
           wrong, ROUNDS);
    MPI_Finalize();
    return 0;
  }

  static long everyone[MAXP][ROUNDS][SUMS];
  MPI_Gather(sums, ROUNDS * SUMS, MPI_LONG, everyone, ROUNDS * SUMS, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < p; ++r)
      for (int round = 0; round < ROUNDS; ++round) {
        char line[1024];
        int at = snprintf(line, sizeof line, "rank %d round %d:", r, round);
        for (int i = 0; i < SUMS; ++i)
          at += snprintf(line + at, sizeof line - at, " %ld", everyone[r][round][i]);
        printf("%s\n", line);
      }
    long total = 0;
    for (int r = 0; r < p; ++r)
      for (int round = 0; round < ROUNDS; ++round)
        for (int i = 0; i < SUMS; ++i)
          total += everyone[r][round][i];
    printf("persistent collectives: %d ranks, %d rounds, requests freed %d, total %ld\n", p, ROUNDS,
           rq[0] == MPI_REQUEST_NULL && rq[requests - 1] == MPI_REQUEST_NULL, total);
  }
  MPI_Comm_free(&ring);
  MPI_Finalize();
  return 0;
}
