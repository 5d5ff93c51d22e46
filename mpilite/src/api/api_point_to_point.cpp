// MPI entry points: point-to-point sends and receives, and the buffer of buffered sends.
#include <climits>
#include <utility>
#include <vector>

#include "api_p2p.hpp"
#include "bsend.hpp"

using namespace mpilite;

namespace {

int blocking_send(const char* name, SendMode mode, const void* buf, int count,
                  MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  ApiCall c(name);
  P2pArgs a;
  Request* q = nullptr;
  if (int e = check_send(c, buf, count, datatype, dest, tag, comm, a)) return e;
  MPISIM_RECORD_OP(c, "send", mode_name(mode), a.count * a.type->size, dest, tag, CommArg{comm});
  if (int e = begin_send(c, mode, a, q)) return e;
  wait_all(c.w, c.r, &q, 1);
  c.w.free_request(q);
  return MPI_SUCCESS;
}

int nonblocking_send(const char* name, SendMode mode, const void* buf, int count,
                     MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  ApiCall c(name);
  P2pArgs a;
  Request* q = nullptr;
  if (int e = check_send(c, buf, count, datatype, dest, tag, comm, a)) return e;
  if (!request) return c.error(comm, MPI_ERR_ARG, "null request pointer");
  if (int e = begin_send(c, mode, a, q)) return e;
  *request = q->handle;
  MPISIM_RECORD_OP(c, "isend", mode_name(mode), a.count * a.type->size, dest, tag, CommArg{comm},
                   NewRequestArg{*request});
  return MPI_SUCCESS;
}

/// MPI_Sendrecv and MPI_Sendrecv_replace once their arguments are checked.
int send_and_receive(ApiCall& c, int dest, int source, MPI_Comm comm, const P2pArgs& send,
                     const P2pArgs& recv, MPI_Status* status) {
  MPISIM_RECORD_OP(c, "sendrecv", send.count * send.type->size, dest, send.tag,
                   recv.count * recv.type->size, source, recv.tag, CommArg{comm});
  Request* reqs[2] = {nullptr, nullptr};
  if (int e = begin_send(c, SendMode::Standard, send, reqs[0])) return e;
  reqs[1] = begin_receive(c, recv);
  c.peer(recv.peer, recv.tag, recv.comm->handle);
  wait_all(c.w, c.r, reqs, 2);
  if (wildcard(source, recv.tag)) MPISIM_RECORD_OUTCOME(c, Outcome::matched(reqs[1]->status));
  // The library progresses the send and the receive together, and in an exchange both ranks
  // copy at once: what that costs beyond a send and a receive is the machine's (measured by
  // mpisim-calibrate), charged once both are done.
  if (send.peer != MPI_PROC_NULL && recv.peer != MPI_PROC_NULL)
    c.r.spend_comm(exchange_extra(c.w, c.r, send.comm->peer_world(send.peer, c.r.id),
                                  send.count * send.type->size, status_bytes(reqs[1]->status)),
                   PathPart::SendOverhead);
  store_single_status(status, reqs[1]->status);
  const int e = receive_error(c, *reqs[1]);
  c.w.free_request(reqs[0]);
  c.w.free_request(reqs[1]);
  return e;
}

} // namespace

namespace mpilite {

int count_in_status(ApiCall& c, const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  const Datatype* t = c.w.datatype(datatype);
  if (!t)
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "invalid datatype {:#x}",
                   static_cast<unsigned>(datatype));
  if (!status || status == MPI_STATUS_IGNORE || !count)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null status or count pointer");
  const std::size_t bytes = status_bytes(*status);
  if (t->size == 0)
    *count = 0;
  else
    *count = bytes % t->size ? MPI_UNDEFINED : static_cast<MPI_Count>(bytes / t->size);
  return MPI_SUCCESS;
}

} // namespace mpilite

extern "C" {

int PMPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Send", SendMode::Standard, buf, count, datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Send)

int PMPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Bsend", SendMode::Buffered, buf, count, datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Bsend)

int PMPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Ssend", SendMode::Synchronous, buf, count, datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Ssend)

int PMPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Rsend", SendMode::Ready, buf, count, datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Rsend)

int PMPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_send("MPI_Isend", SendMode::Standard, buf, count, datatype, dest, tag, comm,
                          request);
}
MPISIM_WEAK_ALIAS(Isend)

int PMPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Ibsend", SendMode::Buffered, buf, count, datatype, dest, tag, comm,
                          request);
}
MPISIM_WEAK_ALIAS(Ibsend)

int PMPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Issend", SendMode::Synchronous, buf, count, datatype, dest, tag,
                          comm, request);
}
MPISIM_WEAK_ALIAS(Issend)

int PMPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Irsend", SendMode::Ready, buf, count, datatype, dest, tag, comm,
                          request);
}
MPISIM_WEAK_ALIAS(Irsend)

int PMPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status* status) {
  ApiCall c("MPI_Recv");
  P2pArgs a;
  if (int e = check_receive(c, buf, count, datatype, source, tag, comm, a)) return e;
  MPISIM_RECORD_OP(c, "recv", a.count * a.type->size, source, tag, CommArg{comm});
  Request* q = begin_receive(c, a);
  wait_all(c.w, c.r, &q, 1);
  if (wildcard(source, tag)) MPISIM_RECORD_OUTCOME(c, Outcome::matched(q->status));
  store_single_status(status, q->status);
  const int e = receive_error(c, *q);
  c.w.free_request(q);
  return e;
}
MPISIM_WEAK_ALIAS(Recv)

int PMPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request* request) {
  ApiCall c("MPI_Irecv");
  P2pArgs a;
  if (int e = check_receive(c, buf, count, datatype, source, tag, comm, a)) return e;
  if (!request) return c.error(comm, MPI_ERR_ARG, "null request pointer");
  *request = begin_receive(c, a)->handle;
  MPISIM_RECORD_OP(c, "irecv", a.count * a.type->size, source, tag, CommArg{comm},
                   NewRequestArg{*request});
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Irecv)

int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status* status) {
  ApiCall c("MPI_Sendrecv");
  P2pArgs send, recv;
  if (int e = check_send_receive(c, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                                 recvtype, source, recvtag, comm, send, recv))
    return e;
  return send_and_receive(c, dest, source, comm, send, recv, status);
}
MPISIM_WEAK_ALIAS(Sendrecv)

int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  ApiCall c("MPI_Sendrecv_replace");
  P2pArgs send, recv;
  if (int e = check_send_receive(c, buf, count, datatype, dest, sendtag, buf, count, datatype,
                                 source, recvtag, comm, send, recv))
    return e;
  // The outgoing data is packed first: the incoming message overwrites the buffer.
  std::vector<std::byte> packed;
  send_packed(send, packed);
  return send_and_receive(c, dest, source, comm, send, recv, status);
}
MPISIM_WEAK_ALIAS(Sendrecv_replace)

int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  ApiCall c("MPI_Get_count");
  MPI_Count n = 0;
  if (int e = count_in_status(c, status, datatype, count ? &n : nullptr)) return e;
  // A count an int cannot hold is undefined here; MPI_Get_count_c tells it.
  *count = n > INT_MAX ? MPI_UNDEFINED : static_cast<int>(n);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Get_count)

int PMPI_Buffer_attach(void* buffer, int size) {
  ApiCall c("MPI_Buffer_attach");
  if (int e = c.check_init()) return e;
  RankRare& rare = c.r.rare();
  if (rare.bsend_buffer)
    return c.error(MPI_COMM_WORLD, MPI_ERR_BUFFER,
                   "a buffer is already attached (detach it first)");
  if (size < 0) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative buffer size {}", size);
  if (!buffer && size > 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_BUFFER, "null buffer of {} bytes", size);
  // Other ranks' receives read buffered messages from it.
  if (size > 0) c.w.refuse_on_shared_stack(buffer, "MPI_Buffer_attach: the attached buffer");
  MPISIM_RECORD_OP(c, "buffer_attach", size);
  rare.bsend_buffer = buffer;
  rare.bsend_capacity = static_cast<std::size_t>(size);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Buffer_attach)

int PMPI_Buffer_detach(void* buffer_addr, int* size) {
  ApiCall c("MPI_Buffer_detach");
  if (int e = c.check_init()) return e;
  if (!buffer_addr || !size)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null buffer address or size pointer");
  MPISIM_RECORD_OP(c, "buffer_detach");
  // The buffered messages must have left before the program may reuse the buffer.
  drain_bsend(c.w, c.r);
  RankRare& rare = c.r.rare();
  *static_cast<void**>(buffer_addr) = std::exchange(rare.bsend_buffer, nullptr);
  *size = static_cast<int>(std::exchange(rare.bsend_capacity, 0));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Buffer_detach)

} // extern "C"
