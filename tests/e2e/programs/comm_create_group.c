/* MPI_Comm_create_group: the even ranks make a communicator of themselves while the odd ranks
 * make theirs (concurrently, with different tags); every rank makes one of all ranks in reverse
 * order; then rank 0 makes one with each other rank in turn (pairs {0, i}, the others not
 * calling), so that the ranks have taken part in different numbers of calls. Each new
 * communicator's size, the caller's rank in it and an Allreduce over it are checked; MPICH gives
 * 0 failed checks too. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world, parity, reversed;
  MPI_Comm_group(MPI_COMM_WORLD, &world);

  int members[64], n = 0;
  for (int r = rank % 2; r < size; r += 2)
    members[n++] = r;
  MPI_Group_incl(world, n, members, &parity);
  MPI_Comm half;
  MPI_Comm_create_group(MPI_COMM_WORLD, parity, rank % 2, &half);
  int hsize = -1, hrank = -1, sum = -1;
  MPI_Comm_size(half, &hsize);
  MPI_Comm_rank(half, &hrank);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
  int want = 0;
  for (int i = 0; i < n; ++i)
    want += members[i];
  errors += hsize != n || hrank != rank / 2 || sum != want;

  for (int i = 0; i < size; ++i)
    members[i] = size - 1 - i;
  MPI_Group_incl(world, size, members, &reversed);
  MPI_Comm all;
  MPI_Comm_create_group(MPI_COMM_WORLD, reversed, 7, &all);
  int arank = -1;
  MPI_Comm_rank(all, &arank);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, all);
  errors += arank != size - 1 - rank || sum != size * (size - 1) / 2;

  for (int i = 1; i < size; ++i) {
    int pair[2] = {0, i};
    MPI_Group g;
    MPI_Group_incl(world, 2, pair, &g);
    if (rank == 0 || rank == i) {
      MPI_Comm two;
      MPI_Comm_create_group(MPI_COMM_WORLD, g, 0, &two);
      MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, two);
      errors += sum != i;
      MPI_Comm_free(&two);
    }
    MPI_Group_free(&g);
  }

  MPI_Comm_free(&half);
  MPI_Comm_free(&all);
  MPI_Group_free(&parity);
  MPI_Group_free(&reversed);
  MPI_Group_free(&world);
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("comm_create_group: %d ranks, %d failed checks\n", size, total);
  MPI_Finalize();
  return 0;
}
