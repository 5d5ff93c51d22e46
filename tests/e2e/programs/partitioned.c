/* MPI-4.0 partitioned communication: a halo exchange on a ring, each rank sending 4 partitions
 * of 2 ints to each neighbour, three rounds of MPI_Startall; the partitions are marked ready in
 * a different order each round (one by one backwards, MPI_Pready_range with MPI_Pready_list,
 * a permuted list) and the receiver polls MPI_Parrived on each partition before MPI_Waitall.
 * Rank 0 prints what every rank received. With "errors": MPI_Pready on an inactive request and
 * on a partition out of range return their error classes, as does freeing an active request. With
 * "mismatch": the receive has 2 partitions where the send has 4, which MPI forbids. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { P = 4, C = 2, ROUNDS = 3, MAXP = 16 };

static void errors(int rank) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int buf[P * C] = {0}, cls;
  MPI_Request rq;
  MPI_Psend_init(buf, P, C, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
  MPI_Error_class(MPI_Pready(0, rq), &cls);
  printf("rank %d: MPI_Pready on an inactive request: %s\n", rank,
         cls == MPI_ERR_REQUEST ? "MPI_ERR_REQUEST" : "another class");
  MPI_Start(&rq);
  MPI_Error_class(MPI_Pready(P, rq), &cls);
  printf("rank %d: MPI_Pready of partition %d of %d: %s\n", rank, P, P,
         cls == MPI_ERR_ARG ? "MPI_ERR_ARG" : "another class");
  MPI_Error_class(MPI_Pready_range(2, 1, rq), &cls);
  printf("rank %d: MPI_Pready_range(2, 1): %s\n", rank,
         cls == MPI_ERR_ARG ? "MPI_ERR_ARG" : "another class");
  MPI_Error_class(MPI_Request_free(&rq), &cls);
  printf("rank %d: MPI_Request_free of an active request: %s\n", rank,
         cls == MPI_ERR_REQUEST ? "MPI_ERR_REQUEST" : "another class");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc > 1 && strcmp(argv[1], "errors") == 0) {
    errors(rank);
    MPI_Finalize();
    return 0;
  }
  const int right = (rank + 1) % p, left = (rank + p - 1) % p;
  const int receive_partitions = argc > 1 && strcmp(argv[1], "mismatch") == 0 ? 2 : P;
  int to_right[P * C], to_left[P * C], from_left[P * C], from_right[P * C];
  MPI_Request rq[4];
  MPI_Psend_init(to_right, P, C, MPI_INT, right, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]);
  MPI_Psend_init(to_left, P, C, MPI_INT, left, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]);
  MPI_Precv_init(from_left, receive_partitions, P * C / receive_partitions, MPI_INT, left, 7,
                 MPI_COMM_WORLD, MPI_INFO_NULL, &rq[2]);
  MPI_Precv_init(from_right, P, C, MPI_INT, right, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[3]);

  static int got[ROUNDS][2][P * C];
  int polls_done = 0;
  for (int round = 0; round < ROUNDS; ++round) {
    MPI_Startall(4, rq);
    for (int i = 0; i < P * C; ++i) {
      to_right[i] = 1000 * round + 100 * rank + i;
      to_left[i] = -(1000 * round + 100 * rank + i);
    }
    if (round == 0) {
      for (int part = P - 1; part >= 0; --part)
        MPI_Pready(part, rq[0]);
    } else if (round == 1) {
      int rest[2] = {3, 2}; /* not const: MPICH 4.0 declares the array without it */
      MPI_Pready_range(0, 1, rq[0]);
      MPI_Pready_list(2, rest, rq[0]);
    } else {
      int order[P] = {2, 0, 3, 1};
      MPI_Pready_list(P, order, rq[0]);
    }
    MPI_Pready_range(0, P - 1, rq[1]);
    for (int part = 0; part < P; ++part) {
      int arrived = 0;
      while (!arrived)
        MPI_Parrived(rq[3], part, &arrived);
      polls_done += arrived;
    }
    MPI_Status st[4];
    MPI_Waitall(4, rq, st);
    memcpy(got[round][0], from_left, sizeof from_left);
    memcpy(got[round][1], from_right, sizeof from_right);
  }
  for (int i = 0; i < 4; ++i)
    MPI_Request_free(&rq[i]);

  static int all[MAXP][ROUNDS][2][P * C];
  int polls[MAXP];
  MPI_Gather(got, ROUNDS * 2 * P * C, MPI_INT, all, ROUNDS * 2 * P * C, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(&polls_done, 1, MPI_INT, polls, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    long total = 0;
    for (int r = 0; r < p; ++r)
      for (int round = 0; round < ROUNDS; ++round)
        for (int side = 0; side < 2; ++side) {
          char line[512];
          int at = snprintf(line, sizeof line, "rank %d round %d from %s:", r, round,
                            side ? "right" : "left");
          for (int i = 0; i < P * C; ++i) {
            at += snprintf(line + at, sizeof line - at, " %d", all[r][round][side][i]);
            total += all[r][round][side][i] * (i + 1 + 10 * side);
          }
          printf("%s\n", line);
        }
    int arrived = 0;
    for (int r = 0; r < p; ++r)
      arrived += polls[r];
    printf("partitioned: %d ranks, %d rounds, partitions seen arrived %d, checksum %ld\n", p,
           ROUNDS, arrived, total);
  }
  MPI_Finalize();
  return 0;
}
