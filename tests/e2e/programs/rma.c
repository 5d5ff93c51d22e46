/* One-sided communication as codes use it: a halo exchange with MPI_Put between fences, a
 * global sum with MPI_Accumulate into rank 0, a strided MPI_Get through a derived target type
 * from a window made by MPI_Win_allocate, and a post/start/complete/wait exchange between
 * neighbours (with the argument pscw; MPICH 4.0.2 leaves the word unwritten and then fails in
 * MPI_Group_free, so that part is checked against the standard). Every rank prints what it holds
 * ("rank R: ..."); MPICH prints the same for the rest. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* Post/start/complete/wait: each rank exposes a word to its left neighbour, which puts. */
static void pscw(int rank, int left, int right) {
  int word = -1;
  MPI_Win pw;
  MPI_Win_create(&word, sizeof word, sizeof word, MPI_INFO_NULL, MPI_COMM_WORLD, &pw);
  MPI_Group world, from, to;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &left, &from);
  MPI_Group_incl(world, 1, &right, &to);
  MPI_Win_post(from, 0, pw);
  MPI_Win_start(to, 0, pw);
  const int gift = 7000 + rank;
  MPI_Put(&gift, 1, MPI_INT, right, 0, 1, MPI_INT, pw);
  MPI_Win_complete(pw);
  MPI_Win_wait(pw);
  printf("rank %d: pscw word %d\n", rank, word);
  MPI_Group_free(&world);
  MPI_Group_free(&from);
  MPI_Group_free(&to);
  MPI_Win_free(&pw);
}

enum { N = 6 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  if (argc > 1 && strcmp(argv[1], "nosync") == 0) { /* a put outside any epoch: erroneous */
    int x = 0;
    MPI_Win w;
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, w);
  }
  if (argc > 1 && strcmp(argv[1], "pscw") == 0) {
    pscw(rank, left, right);
    MPI_Finalize();
    return 0;
  }

  /* 1. Halo: u[0] and u[N+1] are ghosts, filled by the neighbours' puts. */
  double u[N + 2];
  for (int i = 0; i < N + 2; ++i)
    u[i] = i >= 1 && i <= N ? rank * 100 + i : -1;
  MPI_Win halo;
  MPI_Win_create(u, sizeof u, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &halo);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, halo);
  MPI_Put(&u[1], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE, halo);
  MPI_Put(&u[N], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, halo);
  MPI_Win_fence(0, halo);

  /* 2. A global sum into rank 0's window, and a count of contributions. */
  long sums[2] = {0, 0};
  MPI_Win acc;
  MPI_Win_create(sums, rank == 0 ? sizeof sums : 0, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &acc);
  MPI_Win_fence(0, acc);
  long mine[2] = {rank * rank, 1};
  MPI_Accumulate(mine, 2, MPI_LONG, 0, 0, 2, MPI_LONG, MPI_SUM, acc);
  MPI_Accumulate(&mine[0], 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_MAX, acc);
  MPI_Win_fence(0, acc);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, halo);

  /* 3. Every other int of the right neighbour's allocated window. */
  int* table;
  MPI_Win tw;
  MPI_Win_allocate(2 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &table, &tw);
  MPI_Win_fence(0, tw);
  for (int i = 0; i < 2 * N; ++i)
    table[i] = rank * 1000 + i;
  MPI_Win_fence(0, tw);
  MPI_Datatype every_other;
  MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int got[N];
  MPI_Get(got, N, MPI_INT, right, 1, 1, every_other, tw);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, tw);
  int* base = NULL;
  MPI_Aint* wsize = NULL;
  int flag = 0;
  MPI_Win_get_attr(tw, MPI_WIN_BASE, &base, &flag);
  MPI_Win_get_attr(tw, MPI_WIN_SIZE, &wsize, &flag);

  printf("rank %d: ghosts %.0f %.0f, got %d %d .. %d, base %s, size %ld\n", rank, u[0], u[N + 1],
         got[0], got[1], got[N - 1], base == table ? "ok" : "wrong", (long)*wsize);
  if (rank == 0) printf("sum of squares %ld, contributions %ld\n", sums[0], sums[1]);

  /* 4. Atomics on rank 0's window: a counter by MPI_Fetch_and_op, a lock word by
   * MPI_Compare_and_swap (one rank wins), a sum by MPI_Get_accumulate. The order in which the
   * origins are served is MPI's to choose: only order-free results are printed. */
  long atom[3] = {0, -1, 0};
  MPI_Win aw;
  MPI_Win_create(atom, rank == 0 ? sizeof atom : 0, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &aw);
  MPI_Win_fence(0, aw);
  const long inc = 1, me = rank, minus = -1, add = rank + 1;
  long fetched = -5, old = -5, before = -5;
  MPI_Fetch_and_op(&inc, &fetched, MPI_LONG, 0, 0, MPI_SUM, aw);
  MPI_Compare_and_swap(&me, &minus, &old, MPI_LONG, 0, 1, aw);
  MPI_Get_accumulate(&add, 1, MPI_LONG, &before, 1, MPI_LONG, 0, 2, 1, MPI_LONG, MPI_SUM, aw);
  MPI_Win_fence(0, aw);
  long mine3[3] = {fetched, old == -1, before}, all3[3];
  MPI_Reduce(mine3, all3, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("atomics: counter %ld, fetched sum %ld, cas winners %ld, lock word valid %d, sum %ld\n",
           atom[0], all3[0], all3[1], atom[1] >= 0 && atom[1] < size, atom[2]);
  MPI_Win_free(&aw);

  MPI_Type_free(&every_other);
  MPI_Win_free(&tw);
  MPI_Win_free(&acc);
  MPI_Win_free(&halo);
  MPI_Finalize();
  return 0;
}
