/* MPIX_Comm_revoke is an MPICH extension (fault tolerance) that mpisim's mpi.h does not declare.
   Without a declaration the wrapper's compiler refuses the call; with one of the program's own
   (DECLARE_IT), the link does, so the call never reaches MPICH. */
#include <mpi.h>

#ifdef DECLARE_IT
int MPIX_Comm_revoke(MPI_Comm);
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPIX_Comm_revoke(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
