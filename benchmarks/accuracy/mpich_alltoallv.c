/* MPI_Alltoallv as MPICH 4 runs it up to its pairwise thresholds (MPIR_Alltoallv_intra_scattered,
 * which mpisim models: docs/model.md): batches of 32 peers (MPIR_CVAR_ALLTOALL_THROTTLE), in each
 * the receives from rank + i posted first, then the sends to rank - i, pairs with no data skipped,
 * each batch waited for together. Written with point-to-point calls, it makes SMPI post MPICH's
 * messages in MPICH's order (SMPI's closest algorithm, ompi_basic_linear, sends to ranks 0, 1, ...
 * from every rank; docs/results.md, section 3); in mpisim's build it costs exactly what mpisim's
 * own MPI_Alltoallv costs. Contiguous types only, as the NPB-style programs'. */
#include <mpi.h>
#include <string.h>

enum { THROTTLE = 32 };

int MPI_Alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                  MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  int me, p, type_size;
  MPI_Aint lb, sext, rext;
  PMPI_Comm_rank(comm, &me);
  PMPI_Comm_size(comm, &p);
  PMPI_Type_size(sendtype, &type_size);
  PMPI_Type_get_extent(sendtype, &lb, &sext);
  PMPI_Type_get_extent(recvtype, &lb, &rext);
  const char* sbuf = sendbuf;
  char* rbuf = recvbuf;
  /* The own block: a local copy, as mpisim's collectives make it (docs/model.md). */
  memcpy(rbuf + rdispls[me] * rext, sbuf + sdispls[me] * sext, (size_t)sendcounts[me] * type_size);
  MPI_Request requests[2 * THROTTLE];
  /* Statuses are kept: GCC takes MPI_STATUSES_IGNORE for a buffer of 0 bytes and warns. */
  MPI_Status statuses[2 * THROTTLE];
  for (int first = 0; first < p; first += THROTTLE) {
    const int n = p - first < THROTTLE ? p - first : THROTTLE;
    int k = 0;
    for (int i = 0; i < n; ++i) {
      const int peer = (me + i + first) % p;
      if (peer != me && recvcounts[peer] > 0)
        PMPI_Irecv(rbuf + rdispls[peer] * rext, recvcounts[peer], recvtype, peer, 4343, comm,
                   &requests[k++]);
    }
    for (int i = 0; i < n; ++i) {
      const int peer = (me - i - first + p) % p;
      if (peer != me && sendcounts[peer] > 0)
        PMPI_Isend(sbuf + sdispls[peer] * sext, sendcounts[peer], sendtype, peer, 4343, comm,
                   &requests[k++]);
    }
    PMPI_Waitall(k, requests, statuses);
  }
  return MPI_SUCCESS;
}
