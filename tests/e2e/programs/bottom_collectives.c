/* MPI_BOTTOM in collectives: scattered variables described by types of absolute addresses
 * (MPI_Get_address), as codes that pack a struct's fields do: broadcast into them, gather and
 * scatter from and into them, and an MPI_Alltoallw whose buffers are all MPI_BOTTOM. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Two ints that live apart, as one type of absolute addresses. */
static MPI_Datatype pair_type(int* a, int* b) {
  MPI_Aint addr[2];
  MPI_Get_address(a, &addr[0]);
  MPI_Get_address(b, &addr[1]);
  int lens[2] = {1, 1};
  MPI_Datatype t;
  MPI_Type_create_hindexed(2, lens, addr, MPI_INT, &t);
  MPI_Type_commit(&t);
  return t;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int a = rank == 0 ? 11 : 0, b = rank == 0 ? 22 : 0;
  MPI_Datatype pair = pair_type(&a, &b);
  MPI_Bcast(MPI_BOTTOM, 1, pair, 0, MPI_COMM_WORLD);
  printf("rank %d: bcast %d %d\n", rank, a, b);

  a = 100 * rank;
  b = 100 * rank + 1;
  int* gathered = malloc(sizeof(int) * 2 * (size_t)size);
  MPI_Gather(MPI_BOTTOM, 1, pair, gathered, 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    long sum = 0;
    for (int i = 0; i < 2 * size; ++i)
      sum += gathered[i] * (i + 1);
    printf("gather: weighted sum %ld\n", sum);
  }
  for (int i = 0; i < 2 * size; ++i)
    gathered[i] = 7 * i;
  MPI_Scatter(gathered, 2, MPI_INT, MPI_BOTTOM, 1, pair, 0, MPI_COMM_WORLD);
  printf("rank %d: scatter %d %d\n", rank, a, b);

  /* Alltoallw: rank r sends a to every rank and receives rank s's a into slot s of `got`. */
  int* got = calloc((size_t)size, sizeof(int));
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = calloc((size_t)size, sizeof(int));
  MPI_Datatype* sendtypes = malloc(sizeof(MPI_Datatype) * (size_t)size);
  MPI_Datatype* recvtypes = malloc(sizeof(MPI_Datatype) * (size_t)size);
  a = 1000 + rank;
  MPI_Aint at;
  MPI_Get_address(&a, &at);
  int one = 1;
  MPI_Datatype from_a;
  MPI_Type_create_hindexed(1, &one, &at, MPI_INT, &from_a);
  MPI_Type_commit(&from_a);
  for (int s = 0; s < size; ++s) {
    counts[s] = 1;
    sendtypes[s] = from_a;
    MPI_Get_address(&got[s], &at);
    MPI_Type_create_hindexed(1, &one, &at, MPI_INT, &recvtypes[s]);
    MPI_Type_commit(&recvtypes[s]);
  }
  MPI_Alltoallw(MPI_BOTTOM, counts, displs, sendtypes, MPI_BOTTOM, counts, displs, recvtypes,
                MPI_COMM_WORLD);
  long sum = 0;
  for (int s = 0; s < size; ++s)
    sum += got[s];
  printf("rank %d: alltoallw sum %ld\n", rank, sum);

  for (int s = 0; s < size; ++s)
    MPI_Type_free(&recvtypes[s]);
  MPI_Type_free(&from_a);
  MPI_Type_free(&pair);
  free(gathered);
  free(got);
  free(counts);
  free(displs);
  free(sendtypes);
  free(recvtypes);
  MPI_Finalize();
  return 0;
}
