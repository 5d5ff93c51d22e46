// MPI entry points: collective operations.
#include "api_call.hpp"
#include "collectives.hpp"

using namespace mpilite;

namespace {

/// Checks shared by the data-carrying collectives.
int check_data(ApiCall& c, MPI_Comm comm, int count, MPI_Datatype datatype, Comm*& cm,
               const Datatype*& type) {
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = c.check_count(*cm, count)) return e;
  if (int e = c.check_type(*cm, datatype, type)) return e;
  c.collective(comm);
  return MPI_SUCCESS;
}

int op_result(ApiCall& c, MPI_Comm comm, int error, const Op& op, const Datatype& type) {
  if (error == MPI_SUCCESS) return error;
  return c.error(comm, error, "{} cannot be applied to datatype {}", op.name ? op.name : "user op",
                 type.name ? type.name : "(derived)");
}

} // namespace

extern "C" {

int PMPI_Barrier(MPI_Comm comm) {
  ApiCall c("MPI_Barrier");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  c.collective(comm);
  barrier(c.w, c.r, *cm);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Barrier)

int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  ApiCall c("MPI_Bcast");
  Comm* cm;
  const Datatype* type;
  if (int e = check_data(c, comm, count, datatype, cm, type)) return e;
  if (int e = c.check_root(*cm, root)) return e;
  if (int e = c.check_buffer(*cm, buffer, count)) return e;
  bcast(c.w, c.r, buffer, static_cast<std::size_t>(count), *type, root, *cm);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Bcast)

int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm) {
  ApiCall c("MPI_Reduce");
  Comm* cm;
  const Datatype* type;
  const Op* o;
  if (int e = check_data(c, comm, count, datatype, cm, type)) return e;
  if (int e = c.check_root(*cm, root)) return e;
  if (int e = c.check_op(*cm, op, *type, o)) return e;
  const bool is_root = cm->rank_of(c.r.id) == root;
  if (sendbuf == MPI_IN_PLACE && !is_root)
    return c.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (int e = c.check_buffer(*cm, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count)) return e;
  if (is_root)
    if (int e = c.check_buffer(*cm, recvbuf, count)) return e;
  const int error =
      reduce(c.w, c.r, sendbuf, recvbuf, static_cast<std::size_t>(count), *type, *o, root, *cm);
  return op_result(c, comm, error, *o, *type);
}
MPISIM_WEAK_ALIAS(Reduce)

int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  ApiCall c("MPI_Allreduce");
  Comm* cm;
  const Datatype* type;
  const Op* o;
  if (int e = check_data(c, comm, count, datatype, cm, type)) return e;
  if (int e = c.check_op(*cm, op, *type, o)) return e;
  if (int e = c.check_buffer(*cm, recvbuf, count)) return e;
  const int error =
      allreduce(c.w, c.r, sendbuf, recvbuf, static_cast<std::size_t>(count), *type, *o, *cm);
  return op_result(c, comm, error, *o, *type);
}
MPISIM_WEAK_ALIAS(Allreduce)

} // extern "C"
