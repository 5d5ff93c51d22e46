/* Linked into both simulators' builds of the NPB-style programs in benchmarks/run-accuracy's
 * table 3: MPI_Init also makes the first MPI_Bcast, MPI_Reduce and MPI_Allreduce of
 * MPI_COMM_WORLD. SMPI's MPICH selector sets up its SMP-aware communicators on the first of these
 * and charges the messages of that set-up to the simulated clock (63 us on 16 ranks of the cluster
 * preset, 260 us on 64): a cost of SMPI itself, not of the machine model, which would otherwise
 * land in the timed section of a program whose first such call is there (ep, lu). mpisim runs the
 * same calls, so that both start the programs with the same skew between ranks. */
#include <mpi.h>

int MPI_Init(int* argc, char*** argv) {
  const int err = PMPI_Init(argc, argv);
  double x = 0, y = 0;
  PMPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  PMPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  PMPI_Barrier(MPI_COMM_WORLD);
  return err;
}
