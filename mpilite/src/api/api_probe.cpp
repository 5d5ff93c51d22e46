// MPI entry points: probes (MPI_Probe, MPI_Iprobe) and matched probes with message handles
// (MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv).
#include "api_p2p.hpp"
#include "matching.hpp"
#include "probe.hpp"

using namespace mpilite;

namespace {

/// A message handle is the handle of the Take probe request that holds the message, with its
/// kind bits changed so that the two cannot be confused.
constexpr MPI_Message kMessageFlip = static_cast<MPI_Message>(0xc1000000);

MPI_Message message_handle(const Request& q) {
  return q.handle ^ kMessageFlip;
}

/// Checks the arguments of a probe; `world_source` is the world rank, MPI_ANY_SOURCE or
/// MPI_PROC_NULL.
int check_probe(ApiCall& c, int source, int tag, MPI_Comm comm, Comm*& cm, int& world_source) {
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = c.check_rank(*cm, source, true, "source")) return e;
  if (int e = c.check_tag(*cm, tag, true)) return e;
  c.peer(source, tag, comm);
  world_source = source < 0 ? source : cm->peer_world(source, c.r.id);
  return MPI_SUCCESS;
}

int check_out(ApiCall& c, MPI_Comm comm, const void* p, const char* what) {
  if (p) return MPI_SUCCESS;
  return c.error(comm, MPI_ERR_ARG, "null {} pointer", what);
}

/// A probe's status: MPICH's MPI_Probe and MPI_Iprobe set MPI_ERROR (to MPI_SUCCESS), its
/// MPI_Mprobe and MPI_Improbe leave it as the program set it, and programs compared with MPICH
/// see that.
void store_probe_status(bool take, MPI_Status* out, const MPI_Status& s) {
  if (take)
    store_single_status(out, s);
  else
    store_status(out, s);
}

/// MPI_Probe and MPI_Mprobe: blocks until the message is there.
int blocking_probe(const char* name, Request::Probe how, int source, int tag, MPI_Comm comm,
                   MPI_Message* message, MPI_Status* status) {
  ApiCall c(name);
  Comm* cm;
  int world_source;
  if (int e = check_probe(c, source, tag, comm, cm, world_source)) return e;
  const bool take = how == Request::Probe::Take;
  if (!take) MPISIM_RECORD_OP(c, "probe", source, tag, CommArg{comm});
  if (take)
    if (int e = check_out(c, comm, message, "message")) return e;
  if (world_source == MPI_PROC_NULL) {
    store_single_status(status, null_status()); // MPICH leaves MPI_ERROR here too
    if (message) *message = MPI_MESSAGE_NO_PROC;
    if (take) MPISIM_RECORD_OP(c, "mprobe", source, tag, CommArg{comm}, NewMessageArg{*message});
    return MPI_SUCCESS;
  }
  Request* q = start_probe(c.w, c.r, how, world_source, tag, cm->context, *cm);
  wait_all(c.w, c.r, &q, 1);
  // A matched probe is recorded once its message is known: the receive names it.
  if (take) *message = message_handle(*q);
  if (take) MPISIM_RECORD_OP(c, "mprobe", source, tag, CommArg{comm}, NewMessageArg{*message});
  if (wildcard(source, tag)) MPISIM_RECORD_OUTCOME(c, Outcome::matched(q->status));
  store_probe_status(take, status, q->status);
  if (!take) c.w.free_request(q);
  return MPI_SUCCESS;
}

/// MPI_Iprobe and MPI_Improbe: the message there by the rank's clock, if any.
int immediate_probe(const char* name, bool take, int source, int tag, MPI_Comm comm, int* flag,
                    MPI_Message* message, MPI_Status* status) {
  ApiCall c(name);
  Comm* cm;
  int world_source;
  if (int e = check_probe(c, source, tag, comm, cm, world_source)) return e;
  if (!take) MPISIM_RECORD_OP(c, "iprobe", source, tag, CommArg{comm});
  if (int e = check_out(c, comm, flag, "flag")) return e;
  if (take)
    if (int e = check_out(c, comm, message, "message")) return e;
  // A matched probe is recorded once its message is known (MPI_MESSAGE_NULL: none found).
  const auto record_take = [&] {
    if (take) MPISIM_RECORD_OP(c, "improbe", source, tag, CommArg{comm}, NewMessageArg{*message});
  };
  if (world_source == MPI_PROC_NULL) {
    *flag = 1;
    if (take) *message = MPI_MESSAGE_NO_PROC;
    record_take();
    MPISIM_RECORD_OUTCOME(c, Outcome{});
    store_single_status(status, null_status()); // MPICH leaves MPI_ERROR here too
    return MPI_SUCCESS;
  }
  Message* m = probe_now(c.w, c.r, world_source, tag, cm->context, *cm);
  *flag = m != nullptr;
  if (!m) {
    if (take) *message = MPI_MESSAGE_NULL;
    record_take();
    MPISIM_RECORD_OUTCOME(c, Outcome{false, {}, {}});
    return MPI_SUCCESS;
  }
  MPI_Status s;
  describe_message(s, *cm, *m);
  if (take) *message = message_handle(*take_probed(c.w, c.r, *m, *cm));
  record_take();
  MPISIM_RECORD_OUTCOME(c, wildcard(source, tag) ? Outcome::matched(s) : Outcome{});
  store_probe_status(take, status, s);
  return MPI_SUCCESS;
}

/// MPI_Mrecv and MPI_Imrecv: the receive of a message set aside by a matched probe, or null for
/// MPI_MESSAGE_NO_PROC (then `out` is a completed request with the null status).
int matched_receive(ApiCall& c, void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
                    Request*& out) {
  if (int e = check_out(c, MPI_COMM_WORLD, message, "message")) return e;
  if (*message == MPI_MESSAGE_NO_PROC) {
    out = completed_request(c.w, c.r, RequestKind::Recv);
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
  }
  Request* probe = c.w.request(*message ^ kMessageFlip);
  if (!probe || probe->owner != &c.r || probe->probe != Request::Probe::Take || !probe->message)
    return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                   "invalid message handle {:#x} (it must come from MPI_Mprobe or MPI_Improbe of "
                   "this rank, and is good for one receive)",
                   static_cast<unsigned>(*message));
  const Comm& cm = *probe->comm;
  const Datatype* type;
  if (int e = c.check_count(cm, count)) return e;
  if (int e = c.check_type(cm, datatype, type)) return e;
  if (int e = c.check_buffer(cm, buf, count, type)) return e;
  out = receive_probed(c.w, c.r, *probe, buf, static_cast<std::size_t>(count), *type);
  *message = MPI_MESSAGE_NULL;
  return MPI_SUCCESS;
}

/// The bytes `count` elements of `datatype` hold (0 for a type MPI_MESSAGE_NO_PROC left
/// unchecked).
long bytes_of(ApiCall& c, int count, MPI_Datatype datatype) {
  const Datatype* t = c.w.datatype(datatype);
  return t ? static_cast<long>(count) * static_cast<long>(t->size) : 0;
}

} // namespace

extern "C" {

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return blocking_probe("MPI_Probe", Request::Probe::Peek, source, tag, comm, nullptr, status);
}
MPISIM_WEAK_ALIAS(Probe)

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  return blocking_probe("MPI_Mprobe", Request::Probe::Take, source, tag, comm, message, status);
}
MPISIM_WEAK_ALIAS(Mprobe)

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return immediate_probe("MPI_Iprobe", false, source, tag, comm, flag, nullptr, status);
}
MPISIM_WEAK_ALIAS(Iprobe)

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                 MPI_Status* status) {
  return immediate_probe("MPI_Improbe", true, source, tag, comm, flag, message, status);
}
MPISIM_WEAK_ALIAS(Improbe)

int PMPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
               MPI_Status* status) {
  ApiCall c("MPI_Mrecv");
  const MPI_Message m = message ? *message : MPI_MESSAGE_NULL;
  Request* q = nullptr;
  if (int e = matched_receive(c, buf, count, datatype, message, q)) return e;
  MPISIM_RECORD_OP(c, "mrecv", bytes_of(c, count, datatype), MessageArg{m});
  wait_all(c.w, c.r, &q, 1);
  store_single_status(status, q->status);
  const int e = receive_error(c, *q);
  c.w.free_request(q);
  return e;
}
MPISIM_WEAK_ALIAS(Mrecv)

int PMPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
                MPI_Request* request) {
  ApiCall c("MPI_Imrecv");
  if (int e = check_out(c, MPI_COMM_WORLD, request, "request")) return e;
  const MPI_Message m = message ? *message : MPI_MESSAGE_NULL;
  Request* q = nullptr;
  if (int e = matched_receive(c, buf, count, datatype, message, q)) return e;
  *request = q->handle;
  MPISIM_RECORD_OP(c, "imrecv", bytes_of(c, count, datatype), MessageArg{m},
                   NewRequestArg{*request});
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Imrecv)

} // extern "C"
