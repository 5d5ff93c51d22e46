/* MPI_Exscan as MPICH 4 runs it by default (MPIR_Exscan_intra_recursive_doubling, which mpisim
 * models: docs/model.md), written with point-to-point calls. Linked into a program built
 * with smpicc, it makes SMPI run MPICH's messages instead of its own linear MPI_Exscan, which no
 * option selects (docs/results.md, section 3); linked into mpisim's build it costs exactly what
 * mpisim's own MPI_Exscan costs. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm) {
  int rank, size, commutative;
  MPI_Aint lb, extent;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  PMPI_Op_commutative(op, &commutative);
  PMPI_Type_get_extent(type, &lb, &extent);
  const size_t bytes = (size_t)count * extent; /* contiguous types, as the NPB-style programs' */
  char* partial = malloc(bytes);               /* the reduction over this rank's subtree so far */
  char* incoming = malloc(bytes);
  memcpy(partial, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, bytes);
  int have_result = 0;
  for (int mask = 1; mask < size; mask <<= 1) {
    const int peer = rank ^ mask;
    if (peer >= size) continue;
    PMPI_Sendrecv(partial, count, type, peer, 4242, incoming, count, type, peer, 4242, comm,
                  MPI_STATUS_IGNORE);
    if (rank > peer) { /* from lower ranks: into the result, in rank order */
      PMPI_Reduce_local(incoming, partial, count, type, op);
      if (have_result)
        PMPI_Reduce_local(incoming, recvbuf, count, type, op);
      else
        memcpy(recvbuf, incoming, bytes);
      have_result = 1;
    } else if (commutative) {
      PMPI_Reduce_local(incoming, partial, count, type, op);
    } else { /* from higher ranks: after this subtree's */
      PMPI_Reduce_local(partial, incoming, count, type, op);
      memcpy(partial, incoming, bytes);
    }
  }
  free(partial);
  free(incoming);
  return MPI_SUCCESS;
}
