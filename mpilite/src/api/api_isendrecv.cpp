// MPI entry points: MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0). The returned request
// stands for a send and a receive started as MPI_Sendrecv starts them; it completes when both
// have, and is charged as MPI_Sendrecv's wait would charge them (the send overhead when posted,
// the receive's overhead after its data is there, then the machine's sendrecv_extra).
#include <cstddef>
#include <memory>
#include <vector>

#include "api_p2p.hpp"
#include "compound_request.hpp"

using namespace mpilite;

namespace {

/// A send and a receive progressed together.
struct Pair : CompoundRequest {
  SimTime extra(const Request& whole) const override {
    return world ? exchange_extra(*world, *rank, dest, sent, whole.message_bytes) : 0;
  }
  World* world = nullptr; ///< null when either side is MPI_PROC_NULL
  Rank* rank = nullptr;
  int dest = -1; ///< world rank
  std::size_t sent = 0;
};

/// MPI_Isendrecv_replace: the outgoing data, kept until the send is done.
struct Packed : Pair {
  std::vector<std::byte> data;
};

int start_pair(ApiCall& c, const P2pArgs& send, const P2pArgs& recv, std::shared_ptr<Pair> owned,
               MPI_Request* request) {
  if (!request) return c.error(recv.comm->handle, MPI_ERR_ARG, "null request pointer");
  if (send.peer != MPI_PROC_NULL && recv.peer != MPI_PROC_NULL) {
    owned->world = &c.w;
    owned->rank = &c.r;
    owned->dest = send.comm->peer_world(send.peer, c.r.id);
    owned->sent = send.count * send.type->size;
  }
  Request* sent;
  if (int e = begin_send(c, SendMode::Standard, send, sent)) return e;
  Request* received = begin_receive(c, recv);
  const int source = recv.peer == MPI_PROC_NULL ? MPI_PROC_NULL : received->source;
  Request* q = start_compound(c.w, c.r, std::move(owned), {sent, received});
  q->comm = recv.comm;
  // What the receive matched is an outcome of the wait that completes the pair (MPISIM_RECORD).
  q->receives = true;
  q->source = source;
  q->tag = recv.tag;
  *request = q->handle;
  // MPI_Isendrecv_replace's line is MPI_Isendrecv's: the packing it adds costs no simulated time.
  MPISIM_RECORD_OP(c, "isendrecv", send.count * send.type->size, send.peer, send.tag,
                   recv.count * recv.type->size, recv.peer, recv.tag, CommArg{recv.comm->handle},
                   NewRequestArg{*request});
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request* request) {
  ApiCall c("MPI_Isendrecv");
  P2pArgs send, recv;
  if (int e = check_send_receive(c, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                                 recvtype, source, recvtag, comm, send, recv))
    return e;
  return start_pair(c, send, recv, std::make_shared<Pair>(), request);
}
MPISIM_WEAK_ALIAS(Isendrecv)

int PMPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  ApiCall c("MPI_Isendrecv_replace");
  P2pArgs send, recv;
  if (int e = check_send_receive(c, buf, count, datatype, dest, sendtag, buf, count, datatype,
                                 source, recvtag, comm, send, recv))
    return e;
  // The outgoing data is packed first (and kept until the send is done): the incoming message
  // overwrites the buffer.
  auto p = std::make_shared<Packed>();
  send_packed(send, p->data);
  return start_pair(c, send, recv, std::move(p), request);
}
MPISIM_WEAK_ALIAS(Isendrecv_replace)

} // extern "C"
