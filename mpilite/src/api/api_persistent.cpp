// MPI entry points: persistent point-to-point requests, and MPI_Start/MPI_Startall for every
// persistent request (point-to-point, collective, partitioned). A persistent request keeps its
// arguments; each MPI_Start starts a new operation from them, which a wait or test completes,
// leaving the request inactive and its handle valid.
#include <memory>

#include "api_p2p.hpp"

using namespace mpilite;

namespace {

/// A persistent send (of mode `mode`) or receive: MPI_Send_init, MPI_Recv_init and friends.
class PersistentP2p final : public PersistentOp {
public:
  PersistentP2p(RequestKind kind, SendMode mode) : kind(kind), mode(mode) {}
  const RequestKind kind;
  const SendMode mode;
  P2pArgs args;

  int start(ApiCall& c, Request& self) override {
    if (kind == RequestKind::Recv) {
      self.started = begin_receive(c, args);
      return MPI_SUCCESS;
    }
    return begin_send(c, mode, args, self.started);
  }
  bool point_to_point() const override { return true; }
};

/// Makes the persistent request of checked point-to-point operation `op`.
int make_p2p(ApiCall& c, std::shared_ptr<PersistentP2p> op, MPI_Comm comm, MPI_Request* request) {
  // The request keeps its datatype alive until it is freed (World::free_request releases it):
  // the program may free the type after making the request, and every MPI_Start uses it.
  const Datatype* type = op->args.type;
  const RequestKind kind = op->kind;
  if (int e = make_persistent(c, std::move(op), kind, comm, request)) return e;
  retain(*type);
  c.w.request(*request)->type = type;
  return MPI_SUCCESS;
}

int init_send(const char* name, SendMode mode, const void* buf, int count, MPI_Datatype datatype,
              int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  ApiCall c(name);
  auto op = std::make_shared<PersistentP2p>(RequestKind::Send, mode);
  if (int e = check_send(c, buf, count, datatype, dest, tag, comm, op->args)) return e;
  const std::size_t bytes = op->args.count * op->args.type->size;
  if (int e = make_p2p(c, std::move(op), comm, request)) return e;
  MPISIM_RECORD_OP(c, "send_init", mode_name(mode), bytes, dest, tag, CommArg{comm},
                   NewRequestArg{*request});
  return MPI_SUCCESS;
}

int start(ApiCall& c, MPI_Request handle) {
  Request* q = c.w.request(handle);
  if (!q || q->owner != &c.r || !q->persistent)
    return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                   "request {:#x} is not a persistent request (make one with MPI_Send_init, "
                   "MPI_Recv_init, a persistent collective such as MPI_Bcast_init, or "
                   "MPI_Psend_init/MPI_Precv_init)",
                   static_cast<unsigned>(handle));
  if (q->started)
    return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                   "persistent request {:#x} is already active (complete it with MPI_Wait or "
                   "MPI_Test before starting it again)",
                   static_cast<unsigned>(handle));
  // The request holds the operation: freeing it while starting must not free the operation.
  const std::shared_ptr<PersistentOp> op = q->persistent;
  return op->start(c, *q);
}

} // namespace

namespace mpilite {

int make_persistent(ApiCall& c, std::shared_ptr<PersistentOp> op, RequestKind kind, MPI_Comm comm,
                    MPI_Request* request) {
  if (!request) return c.error(comm, MPI_ERR_ARG, "null request pointer");
  Request* q = c.w.new_request(c.r, kind);
  q->persistent = std::move(op);
  *request = q->handle;
  return MPI_SUCCESS;
}

} // namespace mpilite

extern "C" {

int PMPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request* request) {
  return init_send("MPI_Send_init", SendMode::Standard, buf, count, datatype, dest, tag, comm,
                   request);
}
MPISIM_WEAK_ALIAS(Send_init)

int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return init_send("MPI_Bsend_init", SendMode::Buffered, buf, count, datatype, dest, tag, comm,
                   request);
}
MPISIM_WEAK_ALIAS(Bsend_init)

int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return init_send("MPI_Ssend_init", SendMode::Synchronous, buf, count, datatype, dest, tag, comm,
                   request);
}
MPISIM_WEAK_ALIAS(Ssend_init)

int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request) {
  return init_send("MPI_Rsend_init", SendMode::Ready, buf, count, datatype, dest, tag, comm,
                   request);
}
MPISIM_WEAK_ALIAS(Rsend_init)

int PMPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  ApiCall c("MPI_Recv_init");
  auto op = std::make_shared<PersistentP2p>(RequestKind::Recv, SendMode::Standard);
  if (int e = check_receive(c, buf, count, datatype, source, tag, comm, op->args)) return e;
  const std::size_t bytes = op->args.count * op->args.type->size;
  if (int e = make_p2p(c, std::move(op), comm, request)) return e;
  MPISIM_RECORD_OP(c, "recv_init", bytes, source, tag, CommArg{comm}, NewRequestArg{*request});
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Recv_init)

int PMPI_Start(MPI_Request* request) {
  ApiCall c("MPI_Start");
  if (!request) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null request pointer");
  MPISIM_RECORD_OP(c, "start", RequestArg{*request});
  return start(c, *request);
}
MPISIM_WEAK_ALIAS(Start)

int PMPI_Startall(int count, MPI_Request array_of_requests[]) {
  ApiCall c("MPI_Startall");
  if (count < 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "invalid count {} of requests (must be >= 0)",
                   count);
  if (count > 0 && !array_of_requests)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null array of {} requests", count);
  MPISIM_RECORD_OP(c, "startall", RequestsArg{count, array_of_requests});
  for (int i = 0; i < count; ++i)
    if (int e = start(c, array_of_requests[i])) return e;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Startall)

} // extern "C"
