/* The MPI-4.0 large-count (_c) forms family by family, with counts that fit an int: buffered,
 * ready and synchronous sends, matched receives, send-receive in place, non-blocking and
 * persistent point-to-point; scans, reduce-scatter, non-blocking, neighbour and persistent
 * collectives; MPI_Reduce_local_c; packing and type queries; datatype constructors; one-sided
 * puts, gets and accumulates.
 * Each rank sums what it got per family; rank 0 prints every rank's sums. With the argument
 * "huge-put" rank 0 puts 2^31 elements, with "huge-type" builds a type of 2^31 elements and with
 * "huge-counts" passes a count of 2^31 in an MPI_Alltoallv_c array: mpisim refuses those counts
 * by name. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4, FAMILIES = 7 };

static long sum(const int* v, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += (long)(i + 1) * v[i];
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  const char* huge = argc > 1 ? argv[1] : "";
  long got[FAMILIES] = {0};
  int out[N], in[N];
  for (int i = 0; i < N; ++i)
    out[i] = rank * 10 + i;

  /* Point-to-point: buffered, synchronous, ready sends around the ring, matched receives. */
  static char bsend_buffer[1024];
  MPI_Buffer_attach_c(bsend_buffer, sizeof bsend_buffer);
  MPI_Request rq[4];
  MPI_Status st, sts[4];
  MPI_Bsend_c(out, N, MPI_INT, right, 1, MPI_COMM_WORLD);
  MPI_Message msg;
  MPI_Mprobe(left, 1, MPI_COMM_WORLD, &msg, &st);
  MPI_Mrecv_c(in, N, MPI_INT, &msg, &st);
  got[0] += sum(in, N);
  MPI_Issend_c(out, 2, MPI_INT, right, 2, MPI_COMM_WORLD, &rq[0]);
  MPI_Recv_c(in, N, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  got[0] += sum(in, 2);
  MPI_Irecv_c(in, N, MPI_INT, left, 3, MPI_COMM_WORLD, &rq[0]);
  MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: the ready send may go */
  MPI_Rsend_c(out, 3, MPI_INT, right, 3, MPI_COMM_WORLD);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  got[0] += sum(in, 3);
  memcpy(in, out, sizeof in);
  MPI_Sendrecv_replace_c(in, N, MPI_INT, right, 4, left, 4, MPI_COMM_WORLD, &st);
  got[0] += sum(in, N);
  int in2[N] = {0};
  MPI_Isendrecv_c(out, N, MPI_INT, left, 5, in2, N, MPI_INT, right, 5, MPI_COMM_WORLD, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  got[0] += sum(in2, N);
  MPI_Ibsend_c(out, 3, MPI_INT, right, 8, MPI_COMM_WORLD, &rq[0]);
  MPI_Recv_c(in, N, MPI_INT, left, 8, MPI_COMM_WORLD, &st);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Count count;
  MPI_Get_count_c(&st, MPI_INT, &count);
  got[0] += 1000 * count + sum(in, 3);
  void* detached;
  MPI_Count detached_size;
  MPI_Buffer_detach_c(&detached, &detached_size);
  got[0] += detached_size;

  /* Non-blocking and persistent point-to-point, and a matched non-blocking receive. */
  MPI_Send_init_c(out, N, MPI_INT, right, 6, MPI_COMM_WORLD, &rq[0]);
  MPI_Recv_init_c(in, N, MPI_INT, left, 6, MPI_COMM_WORLD, &rq[1]);
  for (int round = 0; round < 2; ++round) {
    MPI_Startall(2, rq);
    MPI_Waitall(2, rq, sts);
    got[1] += sum(in, N);
  }
  MPI_Request_free(&rq[0]);
  MPI_Request_free(&rq[1]);
  MPI_Isend_c(out, N, MPI_INT, right, 7, MPI_COMM_WORLD, &rq[0]);
  int flag = 0;
  while (!flag)
    MPI_Improbe(left, 7, MPI_COMM_WORLD, &flag, &msg, &st);
  MPI_Imrecv_c(in, N, MPI_INT, &msg, &rq[1]);
  MPI_Waitall(2, rq, sts);
  got[1] += sum(in, N);

  /* Collectives: scans, reduce-scatter, non-blocking and persistent forms. */
  int scan[N], exscan[N] = {0}, block[2], ib[N];
  MPI_Scan_c(out, scan, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan_c(out, exscan, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) memset(exscan, 0, sizeof exscan); /* undefined on rank 0 */
  got[2] += sum(scan, N) + 3 * sum(exscan, N);
  int* all = malloc(sizeof(int) * 2 * size);
  for (int i = 0; i < 2 * size; ++i)
    all[i] = rank + i;
  MPI_Reduce_scatter_block_c(all, block, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  got[2] += sum(block, 2);
  memcpy(ib, out, sizeof ib);
  MPI_Ibcast_c(ib, N, MPI_INT, 1 % size, MPI_COMM_WORLD, &rq[0]);
  MPI_Iallreduce_c(out, scan, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq[1]);
  MPI_Igather_c(&rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq[2]);
  MPI_Iscan_c(out, exscan, N, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &rq[3]);
  MPI_Waitall(4, rq, sts);
  got[2] += sum(ib, N) + 5 * sum(scan, N) + 7 * sum(exscan, N) + (rank == 0 ? sum(all, size) : 0);
  MPI_Allreduce_init_c(out, scan, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]);
  MPI_Start(&rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Request_free(&rq[0]);
  got[2] += 11 * sum(scan, N);
  MPI_Comm ring;
  const int periodic = 1;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
  int nb[2];
  MPI_Neighbor_allgather_c(&rank, 1, MPI_INT, nb, 1, MPI_INT, ring);
  got[2] += 13 * sum(nb, 2);
  MPI_Ineighbor_alltoall_c(out, 1, MPI_INT, nb, 1, MPI_INT, ring, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  got[2] += 17 * sum(nb, 2);
  const MPI_Count two[2] = {1, 1};
  const MPI_Aint at[2] = {0, 1}, at_bytes[2] = {0, sizeof(int)};
  const MPI_Datatype int2[2] = {MPI_INT, MPI_INT};
  const int sendtwo[2] = {rank * 3, rank * 3 + 1};
  MPI_Neighbor_allgatherv_c(&rank, 1, MPI_INT, nb, two, at, MPI_INT, ring);
  got[2] += 43 * sum(nb, 2);
  MPI_Neighbor_alltoallv_c(sendtwo, two, at, MPI_INT, nb, two, at, MPI_INT, ring);
  got[2] += 47 * sum(nb, 2);
  MPI_Neighbor_alltoallw_c(sendtwo, two, at_bytes, int2, nb, two, at_bytes, int2, ring);
  got[2] += 53 * sum(nb, 2);
  MPI_Comm_free(&ring);
  free(all);

  /* V-collectives: rank i contributes i + 1 elements; arrays of MPI_Count and MPI_Aint. */
  MPI_Count* counts = malloc(sizeof(MPI_Count) * size);
  MPI_Count* ones = malloc(sizeof(MPI_Count) * size);
  MPI_Aint* displs = malloc(sizeof(MPI_Aint) * size);
  MPI_Aint* steps = malloc(sizeof(MPI_Aint) * size);
  MPI_Aint* bytes = malloc(sizeof(MPI_Aint) * size);
  MPI_Datatype* ints = malloc(sizeof(MPI_Datatype) * size);
  int total = 0;
  for (int i = 0; i < size; ++i) {
    counts[i] = i + 1;
    ones[i] = 1;
    displs[i] = total;
    steps[i] = i;
    bytes[i] = i * (MPI_Aint)sizeof(int);
    ints[i] = MPI_INT;
    total += i + 1;
  }
  if (strcmp(huge, "huge-counts") == 0 && rank == 0) {
    counts[size - 1] = (MPI_Count)1 << 31;
    MPI_Alltoallv_c(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD);
  }
  int* v = malloc(sizeof(int) * total);
  int* each = malloc(sizeof(int) * size);
  int mine[N + 64];
  for (int i = 0; i < rank + 1; ++i)
    mine[i] = rank * 7 + i;
  memset(v, 0, sizeof(int) * total);
  MPI_Gatherv_c(mine, rank + 1, MPI_INT, v, counts, displs, MPI_INT, size - 1, MPI_COMM_WORLD);
  if (rank == size - 1) got[2] += 19 * sum(v, total);
  int piece[64] = {0};
  MPI_Scatterv_c(v, counts, displs, MPI_INT, piece, rank + 1, MPI_INT, size - 1, MPI_COMM_WORLD);
  got[2] += 23 * sum(piece, rank + 1);
  memset(v, 0, sizeof(int) * total);
  MPI_Allgatherv_c(mine, rank + 1, MPI_INT, v, counts, displs, MPI_INT, MPI_COMM_WORLD);
  got[2] += 29 * sum(v, total);
  int* to = malloc(sizeof(int) * size);
  for (int i = 0; i < size; ++i)
    to[i] = rank * 100 + i;
  MPI_Alltoallv_c(to, ones, steps, MPI_INT, each, ones, steps, MPI_INT, MPI_COMM_WORLD);
  got[2] += 31 * sum(each, size);
  MPI_Alltoallw_c(to, ones, bytes, ints, each, ones, bytes, ints, MPI_COMM_WORLD);
  got[2] += 37 * sum(each, size);
  for (int i = 0; i < total; ++i)
    v[i] = rank + i;
  MPI_Reduce_scatter_c(v, piece, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  got[2] += 41 * sum(piece, rank + 1);
  free(counts);
  free(ones);
  free(displs);
  free(steps);
  free(bytes);
  free(ints);
  free(v);
  free(each);
  free(to);

  /* MPI_Reduce_local_c. */
  int acc[N] = {1, 2, 3, 4};
  MPI_Reduce_local_c(out, acc, N, MPI_INT, MPI_PROD);
  got[3] = sum(acc, N);

  /* Packing: sizes, positions, and the external32 forms; type and status queries. */
  char packed[256];
  MPI_Count pack_size = 0, position = 0, external_size = 0, external_position = 0;
  MPI_Pack_size_c(N, MPI_INT, MPI_COMM_WORLD, &pack_size);
  MPI_Pack_c(out, N, MPI_INT, packed, sizeof packed, &position, MPI_COMM_WORLD);
  MPI_Pack_c(&rank, 1, MPI_INT, packed, sizeof packed, &position, MPI_COMM_WORLD);
  int unpacked[N + 1];
  MPI_Count unpack_position = 0;
  MPI_Unpack_c(packed, position, &unpack_position, unpacked, N + 1, MPI_INT, MPI_COMM_WORLD);
  got[6] += sum(unpacked, N + 1) + 1000 * pack_size + 100000 * unpack_position;
  MPI_Pack_external_size_c("external32", N, MPI_INT, &external_size);
  MPI_Pack_external_c("external32", out, N, MPI_INT, packed, sizeof packed, &external_position);
  memset(unpacked, 0, sizeof unpacked);
  MPI_Count external_unpack = 0;
  MPI_Unpack_external_c("external32", packed, external_position, &external_unpack, unpacked, N,
                        MPI_INT);
  got[6] += 3 * sum(unpacked, N) + 1000 * external_size + 100000 * external_unpack +
            (unsigned char)packed[3];
  MPI_Datatype spaced;
  MPI_Type_create_resized_c(MPI_INT, -4, 3 * sizeof(int), &spaced);
  MPI_Count lb, extent, true_lb, true_extent, elements;
  MPI_Type_get_extent_c(spaced, &lb, &extent);
  MPI_Type_get_true_extent_c(spaced, &true_lb, &true_extent);
  MPI_Type_free(&spaced);
  MPI_Sendrecv_c(out, 3, MPI_INT, right, 13, in, N, MPI_INT, left, 13, MPI_COMM_WORLD, &st);
  MPI_Get_elements_c(&st, MPI_INT, &elements);
  got[6] += 7 * (lb + 10 * extent + 100 * true_lb + 1000 * true_extent + 10000 * elements);

  /* Datatype constructors: a strided column, a contiguous pair, a resized int. */
  if (strcmp(huge, "huge-type") == 0 && rank == 0) {
    MPI_Datatype t;
    MPI_Type_contiguous_c((MPI_Count)1 << 31, MPI_INT, &t);
  }
  int grid[3 * N], col[3] = {0};
  for (int i = 0; i < 3 * N; ++i)
    grid[i] = rank + i * i;
  MPI_Datatype column, pair, wide, hcolumn;
  MPI_Type_vector_c(3, 1, N, MPI_INT, &column);
  MPI_Type_commit(&column);
  MPI_Type_contiguous_c(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Type_create_resized_c(MPI_INT, 0, 2 * sizeof(int), &wide);
  MPI_Type_commit(&wide);
  MPI_Type_create_hvector_c(3, 1, N * sizeof(int), MPI_INT, &hcolumn);
  MPI_Type_commit(&hcolumn);
  MPI_Sendrecv_c(grid + 1, 1, column, right, 9, col, 3, MPI_INT, left, 9, MPI_COMM_WORLD, &st);
  got[4] += sum(col, 3);
  MPI_Sendrecv_c(grid, 2, pair, right, 10, in, 4, MPI_INT, left, 10, MPI_COMM_WORLD, &st);
  got[4] += 3 * sum(in, 4);
  MPI_Sendrecv_c(grid, 3, wide, right, 11, col, 3, MPI_INT, left, 11, MPI_COMM_WORLD, &st);
  got[4] += 5 * sum(col, 3);
  MPI_Sendrecv_c(grid + 2, 1, hcolumn, right, 12, col, 3, MPI_INT, left, 12, MPI_COMM_WORLD, &st);
  got[4] += 7 * sum(col, 3);
  /* Constructors with arrays of MPI_Count: each picks elements of the grid, sent as ints. */
  const MPI_Count lengths[3] = {1, 2, 1}, places[3] = {0, 3, 7}, bytes_at[3] = {0, 12, 28};
  const MPI_Count sizes[2] = {3, N}, subsizes[2] = {2, 2}, starts[2] = {1, 1};
  const MPI_Datatype three_ints[3] = {MPI_INT, MPI_INT, MPI_INT};
  const MPI_Count gsizes[1] = {3 * N};
  const int distribs[1] = {MPI_DISTRIBUTE_BLOCK}, dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG},
            psizes[1] = {3};
  MPI_Datatype picked[7];
  MPI_Type_indexed_c(3, lengths, places, MPI_INT, &picked[0]);
  MPI_Type_create_hindexed_c(3, lengths, bytes_at, MPI_INT, &picked[1]);
  MPI_Type_create_indexed_block_c(3, 1, places, MPI_INT, &picked[2]);
  MPI_Type_create_hindexed_block_c(3, 2, bytes_at, MPI_INT, &picked[3]);
  MPI_Type_create_struct_c(3, lengths, bytes_at, three_ints, &picked[4]);
  MPI_Type_create_subarray_c(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &picked[5]);
  MPI_Type_create_darray_c(3, 1, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT,
                           &picked[6]);
  for (int t = 0; t < 7; ++t) {
    int picks[3 * N] = {0};
    MPI_Count picked_size;
    MPI_Type_commit(&picked[t]);
    MPI_Type_size_c(picked[t], &picked_size);
    MPI_Sendrecv_c(grid, 1, picked[t], right, 20 + t, picks, 3 * N, MPI_INT, left, 20 + t,
                   MPI_COMM_WORLD, &st);
    got[4] += (t + 11) * (sum(picks, 3 * N) + 100 * picked_size);
    MPI_Type_free(&picked[t]);
  }
  MPI_Count tsize;
  MPI_Type_size_c(column, &tsize);
  got[4] += 1000 * tsize;
  MPI_Type_free(&column);
  MPI_Type_free(&pair);
  MPI_Type_free(&wide);
  MPI_Type_free(&hcolumn);

  /* One-sided: put to the right, get from the left, accumulate on rank 0, between fences. */
  int* base;
  MPI_Win win;
  MPI_Win_allocate(3 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 3 * N; ++i)
    base[i] = rank * 100 + i;
  MPI_Win_fence(0, win);
  if (strcmp(huge, "huge-put") == 0 && rank == 0)
    MPI_Put_c(out, (MPI_Count)1 << 31, MPI_INT, right, 0, (MPI_Count)1 << 31, MPI_INT, win);
  MPI_Put_c(out, N, MPI_INT, right, 0, N, MPI_INT, win);
  int fetched[N], old[N];
  MPI_Get_c(fetched, N, MPI_INT, left, N, N, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Accumulate_c(out, N, MPI_INT, 0, 2 * N, N, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  MPI_Get_accumulate_c(out, 1, MPI_INT, old, 1, MPI_INT, left, 0, 1, MPI_INT, MPI_MAX, win);
  MPI_Win_fence(0, win);
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  MPI_Rget_c(in, N, MPI_INT, right, N, N, MPI_INT, win, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Win_unlock(right, win);
  MPI_Barrier(MPI_COMM_WORLD);
  got[5] = sum(base, 3 * N) + 3 * sum(fetched, N) + 5 * old[0] + 7 * sum(in, N);
  MPI_Win_free(&win);

  /* Windows of MPI_Aint displacement units: created on memory, allocated, shared on one rank. */
  int exposed[N] = {0}, *allocated, *shared, *queried;
  MPI_Win created, alloc_win, shared_win;
  MPI_Win_create_c(exposed, sizeof exposed, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &created);
  MPI_Win_allocate_c(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &allocated,
                     &alloc_win);
  MPI_Win_allocate_shared_c(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &shared,
                            &shared_win);
  MPI_Aint shared_size, shared_unit;
  MPI_Win_shared_query_c(shared_win, 0, &shared_size, &shared_unit, &queried);
  for (int i = 0; i < N; ++i)
    allocated[i] = shared[i] = 0;
  MPI_Win_fence(0, created);
  MPI_Win_fence(0, alloc_win);
  MPI_Put_c(out, 2, MPI_INT, right, 1, 2, MPI_INT, created);
  MPI_Put_c(out + 2, 2, MPI_INT, left, 2, 2, MPI_INT, alloc_win);
  MPI_Win_fence(0, created);
  MPI_Win_fence(0, alloc_win);
  queried[1] = rank + 5;
  got[5] += 11 * sum(exposed, N) + 13 * sum(allocated, N) + 17 * sum(shared, N) +
            100000 * (shared_size + 10 * shared_unit) + (queried == shared);
  MPI_Win_free(&created);
  MPI_Win_free(&alloc_win);
  MPI_Win_free(&shared_win);

  long* every = malloc(sizeof(long) * FAMILIES * size);
  MPI_Gather(got, FAMILIES, MPI_LONG, every, FAMILIES, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      printf("rank %d: p2p %ld, nonblocking %ld, collectives %ld, reduce_local %ld, types %ld, "
             "rma %ld, pack %ld\n",
             r, every[r * FAMILIES], every[r * FAMILIES + 1], every[r * FAMILIES + 2],
             every[r * FAMILIES + 3], every[r * FAMILIES + 4], every[r * FAMILIES + 5],
             every[r * FAMILIES + 6]);
  free(every);
  MPI_Finalize();
  return 0;
}
