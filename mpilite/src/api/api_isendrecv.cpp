// MPI entry points: MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0). The returned request
// stands for a send and a receive started as MPI_Sendrecv starts them; it completes when both
// have, and is charged as MPI_Sendrecv's wait would charge them (the send overhead when posted,
// the receive's overhead after its data is there).
#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "api_p2p.hpp"

using namespace mpilite;

namespace {

/// The two operations behind one request, owned by that request.
struct Pair {
  World* w = nullptr;
  Request* whole = nullptr;
  Request* parts[2] = {nullptr, nullptr}; ///< the send, the receive
  int pending = 0;
  std::vector<std::byte> packed; ///< MPI_Isendrecv_replace: the outgoing data
};

/// Both parts are complete (run through World::defer: never inside the matching of a part).
void finish(void* self) {
  Pair& p = *static_cast<Pair*>(self);
  Request& send = *p.parts[0];
  Request& recv = *p.parts[1];
  Request& q = *p.whole;
  q.status = recv.status;
  q.message_bytes = recv.message_bytes;
  q.busy = recv.recv_overhead;
  const SimTime ready = std::max(send.ready_time, recv.ready_time + recv.recv_overhead);
  World& w = *p.w;
  w.free_request(&send);
  w.free_request(&recv);
  p.parts[0] = p.parts[1] = nullptr;
  // A request freed by MPI_Request_free frees itself (and this pair) as it completes.
  Rank& owner = *q.owner;
  mark_complete(q, ready);
  w.scheduler().wake(owner.task);
}

void part_done(Request&, void* self) {
  Pair& p = *static_cast<Pair*>(self);
  if (--p.pending == 0) p.w->defer(&finish, &p);
}

int start_pair(ApiCall& c, const P2pArgs& send, const P2pArgs& recv, std::shared_ptr<Pair> p,
               MPI_Request* request) {
  if (!request) return c.error(recv.comm->handle, MPI_ERR_ARG, "null request pointer");
  Request* q = c.w.new_request(c.r, RequestKind::Collective);
  q->comm = recv.comm;
  q->post_time = c.r.clock;
  p->w = &c.w;
  p->whole = q;
  if (int e = begin_send(c, SendMode::Standard, send, p->parts[0])) {
    c.w.free_request(q);
    return e;
  }
  p->parts[1] = begin_receive(c, recv);
  // Held while the callbacks are set: a part may complete before the other is looked at.
  p->pending = 1;
  for (Request* part : p->parts)
    if (!part->complete) {
      ++p->pending;
      part->on_complete = &part_done;
      part->completion_context = p.get();
    }
  Pair& pair = *p;
  q->owned = std::move(p);
  *request = q->handle;
  part_done(*q, &pair);
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
  auto p = std::make_shared<Pair>();
  send_packed(send, p->packed);
  return start_pair(c, send, recv, std::move(p), request);
}
MPISIM_WEAK_ALIAS(Isendrecv_replace)

} // extern "C"
