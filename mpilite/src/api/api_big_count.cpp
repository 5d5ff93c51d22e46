// MPI entry points: the MPI-4.0 large-count (`_c`) forms of the calls NPB-like codes use. Each
// checks that its counts fit an int (mpisim counts elements in int, as MPI-3.1 does) and does
// what the int form does; a larger count is refused with MPI_ERR_COUNT, never truncated.
#include <climits>
#include <initializer_list>

#include "api_call.hpp"

using namespace mpilite;

namespace {

/// MPI_SUCCESS if no count is above what an int holds; else the error, on `comm`'s handler.
/// (A negative count goes on to the int form, which refuses it.)
int check_counts(const char* name, MPI_Comm comm, std::initializer_list<MPI_Count> counts) {
  for (MPI_Count n : counts)
    if (n > INT_MAX) {
      ApiCall c(name);
      return c.error(comm, MPI_ERR_COUNT,
                     "count {} is above 2^31 - 1: mpisim supports large counts up to that only", n);
    }
  return MPI_SUCCESS;
}

/// A count check_counts let through, as an int; any negative count as -1.
int as_int(MPI_Count n) {
  return n < 0 ? -1 : static_cast<int>(n);
}

} // namespace

extern "C" {

int PMPI_Send_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm) {
  if (int e = check_counts("MPI_Send_c", comm, {count})) return e;
  return PMPI_Send(buf, as_int(count), datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Send_c)

int PMPI_Ssend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
  if (int e = check_counts("MPI_Ssend_c", comm, {count})) return e;
  return PMPI_Ssend(buf, as_int(count), datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Ssend_c)

int PMPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status* status) {
  if (int e = check_counts("MPI_Recv_c", comm, {count})) return e;
  return PMPI_Recv(buf, as_int(count), datatype, source, tag, comm, status);
}
MPISIM_WEAK_ALIAS(Recv_c)

int PMPI_Isend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request* request) {
  if (int e = check_counts("MPI_Isend_c", comm, {count})) return e;
  return PMPI_Isend(buf, as_int(count), datatype, dest, tag, comm, request);
}
MPISIM_WEAK_ALIAS(Isend_c)

int PMPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request* request) {
  if (int e = check_counts("MPI_Irecv_c", comm, {count})) return e;
  return PMPI_Irecv(buf, as_int(count), datatype, source, tag, comm, request);
}
MPISIM_WEAK_ALIAS(Irecv_c)

int PMPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  if (int e = check_counts("MPI_Sendrecv_c", comm, {sendcount, recvcount})) return e;
  return PMPI_Sendrecv(sendbuf, as_int(sendcount), sendtype, dest, sendtag, recvbuf,
                       as_int(recvcount), recvtype, source, recvtag, comm, status);
}
MPISIM_WEAK_ALIAS(Sendrecv_c)

int PMPI_Bcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  if (int e = check_counts("MPI_Bcast_c", comm, {count})) return e;
  return PMPI_Bcast(buffer, as_int(count), datatype, root, comm);
}
MPISIM_WEAK_ALIAS(Bcast_c)

int PMPI_Reduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm) {
  if (int e = check_counts("MPI_Reduce_c", comm, {count})) return e;
  return PMPI_Reduce(sendbuf, recvbuf, as_int(count), datatype, op, root, comm);
}
MPISIM_WEAK_ALIAS(Reduce_c)

int PMPI_Allreduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm) {
  if (int e = check_counts("MPI_Allreduce_c", comm, {count})) return e;
  return PMPI_Allreduce(sendbuf, recvbuf, as_int(count), datatype, op, comm);
}
MPISIM_WEAK_ALIAS(Allreduce_c)

int PMPI_Allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (int e = check_counts("MPI_Allgather_c", comm, {sendcount, recvcount})) return e;
  return PMPI_Allgather(sendbuf, as_int(sendcount), sendtype, recvbuf, as_int(recvcount), recvtype,
                        comm);
}
MPISIM_WEAK_ALIAS(Allgather_c)

int PMPI_Alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (int e = check_counts("MPI_Alltoall_c", comm, {sendcount, recvcount})) return e;
  return PMPI_Alltoall(sendbuf, as_int(sendcount), sendtype, recvbuf, as_int(recvcount), recvtype,
                       comm);
}
MPISIM_WEAK_ALIAS(Alltoall_c)

int PMPI_Gather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (int e = check_counts("MPI_Gather_c", comm, {sendcount, recvcount})) return e;
  return PMPI_Gather(sendbuf, as_int(sendcount), sendtype, recvbuf, as_int(recvcount), recvtype,
                     root, comm);
}
MPISIM_WEAK_ALIAS(Gather_c)

int PMPI_Scatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (int e = check_counts("MPI_Scatter_c", comm, {sendcount, recvcount})) return e;
  return PMPI_Scatter(sendbuf, as_int(sendcount), sendtype, recvbuf, as_int(recvcount), recvtype,
                      root, comm);
}
MPISIM_WEAK_ALIAS(Scatter_c)

int PMPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  int n = 0;
  const int e = PMPI_Get_count(status, datatype, count ? &n : nullptr);
  if (e == MPI_SUCCESS) *count = n; // MPI_UNDEFINED stays MPI_UNDEFINED
  return e;
}
MPISIM_WEAK_ALIAS(Get_count_c)

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size) {
  return PMPI_Type_size_x(datatype, size);
}
MPISIM_WEAK_ALIAS(Type_size_c)

} // extern "C"
