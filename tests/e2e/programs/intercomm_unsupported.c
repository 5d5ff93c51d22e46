/* Calls that mpisim refuses on an intercommunicator, chosen by argv[1]: "scan" (a collective
 * with no intercommunicator form), "iexscan" (a non-blocking one), "cart" (a topology),
 * "split_type". Each must end the run naming the call, never hang or answer wrongly. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int wrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, wrank % 2 ? 0 : 1, 3, &inter);
  const char* what = argc > 1 ? argv[1] : "scan";
  int v = wrank, sum = 0;
  if (strcmp(what, "scan") == 0) {
    MPI_Scan(&v, &sum, 1, MPI_INT, MPI_SUM, inter);
  } else if (strcmp(what, "iexscan") == 0) {
    MPI_Request q;
    MPI_Iexscan(&v, &sum, 1, MPI_INT, MPI_SUM, inter, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
  } else if (strcmp(what, "cart") == 0) {
    int dims[1] = {1}, periods[1] = {0};
    MPI_Comm cart;
    MPI_Cart_create(inter, 1, dims, periods, 0, &cart);
  } else if (strcmp(what, "split_type") == 0) {
    MPI_Comm part;
    MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, wrank, MPI_INFO_NULL, &part);
  }
  printf("rank %d: %s returned\n", wrank, what);
  MPI_Finalize();
  return 0;
}
