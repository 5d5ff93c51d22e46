// A put outside the memory a rank attached to its dynamic window, in a fence epoch with a
// valid put after it, then a second epoch: the error is raised (at the target's fence, which
// alone knows what it attached), the valid put of the first epoch lands in that epoch, and the
// second epoch's put lands in the second; none is left over for a later epoch.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win w;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  long* mem = calloc(16, sizeof(long));
  MPI_Win_attach(w, mem, 4 * sizeof(long));
  MPI_Aint base;
  MPI_Get_address(mem, &base);
  MPI_Bcast(&base, 1, MPI_AINT, 0, MPI_COMM_WORLD);
  const long seven = 7, nine = 9;
  long got = -1;
  MPI_Win_fence(0, w);
  if (rank == 1) {
    MPI_Put(&seven, 1, MPI_LONG, 0, base + 4 * (MPI_Aint)sizeof(long), 1, MPI_LONG, w);
    MPI_Put(&seven, 1, MPI_LONG, 0, base, 1, MPI_LONG, w);
    MPI_Get(&got, 1, MPI_LONG, 0, base + 8 * (MPI_Aint)sizeof(long), 1, MPI_LONG, w);
  }
  int cls;
  MPI_Error_class(MPI_Win_fence(0, w), &cls);
  if (rank == 0)
    printf("rank 0: first fence range error %d, mem0 %ld\n", cls == MPI_ERR_RMA_RANGE, mem[0]);
  if (rank == 1) MPI_Put(&nine, 1, MPI_LONG, 0, base + (MPI_Aint)sizeof(long), 1, MPI_LONG, w);
  MPI_Error_class(MPI_Win_fence(0, w), &cls);
  if (rank == 0)
    printf("rank 0: second fence success %d, mem0 %ld mem1 %ld\n", cls == MPI_SUCCESS, mem[0],
           mem[1]);
  if (rank == 1) printf("rank 1: the refused get left %ld\n", got);
  MPI_Win_detach(w, mem);
  MPI_Win_free(&w);
  free(mem);
  MPI_Finalize();
  return 0;
}
