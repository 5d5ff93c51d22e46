#include "api_p2p.hpp"

#include "bsend.hpp"
#include "generalized_request.hpp"

namespace mpilite {
namespace {

int check_data(ApiCall& c, const void* buf, int count, MPI_Datatype datatype, MPI_Comm comm,
               P2pArgs& out) {
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = c.check_count(*cm, count)) return e;
  if (int e = c.check_type(*cm, datatype, out.type)) return e;
  if (int e = c.check_buffer(*cm, buf, count, out.type)) return e;
  out.buf = const_cast<void*>(buf);
  out.count = static_cast<std::size_t>(count);
  out.comm = cm;
  return MPI_SUCCESS;
}

} // namespace

int check_send(ApiCall& c, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, P2pArgs& out) {
  if (int e = check_data(c, buf, count, datatype, comm, out)) return e;
  if (int e = c.check_rank(*out.comm, dest, false, "destination")) return e;
  if (int e = c.check_tag(*out.comm, tag, false)) return e;
  out.peer = dest;
  out.tag = tag;
  c.peer(dest, tag, comm);
  return MPI_SUCCESS;
}

int check_receive(ApiCall& c, void* buf, int count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, P2pArgs& out) {
  if (int e = check_data(c, buf, count, datatype, comm, out)) return e;
  if (int e = c.check_rank(*out.comm, source, true, "source")) return e;
  if (int e = c.check_tag(*out.comm, tag, true)) return e;
  out.peer = source;
  out.tag = tag;
  c.peer(source, tag, comm);
  return MPI_SUCCESS;
}

const char* mode_name(SendMode mode) {
  switch (mode) {
  case SendMode::Standard:
    return "standard";
  case SendMode::Buffered:
    return "buffered";
  case SendMode::Synchronous:
    return "synchronous";
  case SendMode::Ready:
    return "ready";
  }
  return "?";
}

int begin_send(ApiCall& c, SendMode mode, const P2pArgs& a, Request*& out) {
  if (a.peer == MPI_PROC_NULL) {
    out = completed_request(c.w, c.r, RequestKind::Send);
    return MPI_SUCCESS;
  }
  const std::size_t bytes = a.count * a.type->size;
  if (mode == SendMode::Buffered) {
    const std::size_t used = bsend_in_use(c.w, c.r);
    const std::size_t capacity = c.r.rare().bsend_capacity;
    if (used + bytes + MPI_BSEND_OVERHEAD > capacity)
      return c.error(a.comm->handle, MPI_ERR_BUFFER,
                     "buffered send of {} bytes needs {} bytes of attached buffer, {} of {} free "
                     "(attach a larger buffer with MPI_Buffer_attach)",
                     bytes, bytes + MPI_BSEND_OVERHEAD, capacity - std::min(used, capacity),
                     capacity);
  }
  out = start_send(c.w, c.r, mode, a.buf, a.count, *a.type, a.comm->peer_world(a.peer, c.r.id),
                   a.tag, a.comm->context);
  return MPI_SUCCESS;
}

int check_send_receive(ApiCall& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       int dest, int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                       int source, int recvtag, MPI_Comm comm, P2pArgs& send, P2pArgs& recv) {
  if (int e = check_send(c, sendbuf, sendcount, sendtype, dest, sendtag, comm, send)) return e;
  return check_receive(c, recvbuf, recvcount, recvtype, source, recvtag, comm, recv);
}

void send_packed(P2pArgs& send, std::vector<std::byte>& packed) {
  packed.resize(send.count * send.type->size);
  pack(send.buf, send.count, *send.type, packed.data());
  send.buf = packed.data();
  send.count = packed.size();
  send.type = builtin_datatype(MPI_BYTE);
}

Request* begin_receive(ApiCall& c, const P2pArgs& a) {
  if (a.peer == MPI_PROC_NULL) return completed_request(c.w, c.r, RequestKind::Recv);
  const int source = a.peer == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : a.comm->peer_world(a.peer, c.r.id);
  return start_receive(c.w, c.r, a.buf, a.count, *a.type, source, a.tag, a.comm->context, *a.comm);
}

std::string failure_text(const Request& q) {
  if (generalized(q))
    return fmt::format("the generalized request's query_fn returned {}",
                       error_class_text(q.status.MPI_ERROR));
  if (q.kind != RequestKind::Recv) // a non-blocking collective: its error is in its status
    return error_class_text(q.status.MPI_ERROR);
  if (q.partitions != q.sent_partitions)
    return fmt::format("partitioned receive of {} partitions matched a partitioned send of {} "
                       "partitions from rank {} (tag {}): MPI requires the same partitioning on "
                       "both sides",
                       q.partitions, q.sent_partitions, q.status.MPI_SOURCE, q.status.MPI_TAG);
  return fmt::format("message of {} bytes from rank {} (tag {}) does not fit the receive buffer "
                     "of {} bytes",
                     q.message_bytes, q.status.MPI_SOURCE, q.status.MPI_TAG,
                     q.count * q.type->size);
}

int receive_error(ApiCall& c, const Request& q) {
  if (q.kind == RequestKind::Send || q.status.MPI_ERROR == MPI_SUCCESS) return MPI_SUCCESS;
  return c.error(q.comm ? q.comm->handle : MPI_COMM_WORLD, q.status.MPI_ERROR, "{}",
                 failure_text(q));
}

MPI_Status empty_status() {
  MPI_Status s{};
  s.MPI_SOURCE = MPI_ANY_SOURCE;
  s.MPI_TAG = MPI_ANY_TAG;
  s.MPI_ERROR = MPI_SUCCESS;
  return s;
}

int lookup_requests(ApiCall& c, int count, const MPI_Request* handles, HandleSet& out) {
  if (count < 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "invalid count {} of requests (must be >= 0)",
                   count);
  if (count > 0 && !handles)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null array of {} requests", count);
  const auto n = static_cast<std::size_t>(count);
  // Appended one by one: assign(n, nullptr) and a second pass cost more than the whole lookup
  // of MPI_Wait's one handle.
  out.named.clear();
  out.ops.clear();
  out.named.reserve(n);
  out.ops.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Request* q = nullptr;
    if (handles[i] != MPI_REQUEST_NULL) {
      q = c.w.request(handles[i]);
      if (!q || q->owner != &c.r)
        return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "invalid request {:#x} at index {}",
                       static_cast<unsigned>(handles[i]), i);
    }
    out.named.push_back(q);
    out.ops.push_back(q && q->persistent ? q->started : q);
  }
  return MPI_SUCCESS;
}

MPI_Status finish_request(ApiCall& c, HandleSet& set, std::size_t i, MPI_Request* handles) {
  Request* op = set.ops[i];
  if (!op) return empty_status();
  MPI_Status s = op->status;
  if (op->kind == RequestKind::Send) s.MPI_ERROR = MPI_SUCCESS;
  if (generalized(*op)) release_generalized(*op);
  c.w.free_request(op);
  set.ops[i] = nullptr;
  if (set.named[i]->persistent) {
    set.named[i]->started = nullptr;
  } else {
    handles[i] = MPI_REQUEST_NULL;
  }
  return s;
}

void release_when_complete(World& w, Request& q) {
  if (generalized(q)) {
    if (q.complete) {
      release_generalized(q);
      w.free_request(&q);
    } else {
      free_generalized_early(q); // MPI_Grequest_complete frees it
    }
    return;
  }
  // A send's reply finds no request once it is freed; a receive must stay until matched.
  if (q.complete || q.kind == RequestKind::Send) {
    w.free_request(&q);
    return;
  }
  q.active = false; // its handle is no longer valid
  if (q.kind == RequestKind::Recv) ++q.owner->released_receives;
  q.on_complete = [](Request& self, void*) {
    if (self.kind == RequestKind::Recv) --self.owner->released_receives;
    World::get().free_request(&self);
  };
}

} // namespace mpilite
