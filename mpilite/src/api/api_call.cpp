#include "api_call.hpp"

#include <cstdio>
#include <cstdlib>

#include "comm_agreement.hpp"
#include "openmp_calls.hpp"
#include "p2p.hpp"
#include "process_exit.hpp"

namespace mpilite {
namespace {

World& running_world(const char* name) {
  World* w = World::of_calling_rank();
  if (!w) {
    std::fprintf(stderr,
                 "mpisim: %s called outside a simulated rank (before main, or from a thread "
                 "other than the rank's own, such as an OpenMP worker); MPI calls must come from "
                 "the program's main thread and what it calls\n",
                 name);
    // Not exit(): on another thread it would run the handlers while the simulation runs.
    std::fflush(nullptr);
    mpilite::end_process_now(1);
  }
  return *w;
}

} // namespace

ApiCall::ApiCall(const char* call) : w(running_world(call)), r(w.self()), name(call) {
  if (r.call_depth++ == 0) {
    // Named before the compute is charged: a charge that fails names the call it came before.
    r.call = {call, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_NULL, false};
    r.last_call = call;
    if (r.region_threads > 0) openmp_call_begins(w, r, call);
    w.kernel().hooks.enter_mpi(r);
    started_ = r.clock;
    ++r.stats.mpi_calls;
    if (w.op_log) w.op_log->enter(r.id);
    // A call replay could not re-issue would make the recorded trace silently wrong.
    if (w.op_log && !OpLog::covers(call)) w.stop(RunEnd::FatalError, 1, OpLog::refusal(r.id, call));
  }
}

ApiCall::~ApiCall() {
  if (--r.call_depth == 0) {
    // Before leave_mpi: the time the rank may wait here is not the program's compute.
    if (r.released_receives > 0) deliver_released_receives(w, r);
    w.kernel().hooks.leave_mpi(r); // it may look at r.call (timelines name the call)
    r.call.name = nullptr;
    if (r.region_threads > 0) openmp_call_ends(r, r.clock - started_);
  }
}

int ApiCall::check_init_closed() {
  // MPI-4.0 section 11.3: a session opens MPI to its rank as MPI_Init does, with or without it.
  for (MPI_Errhandler session : r.rare_or_default().sessions)
    if (session != MPI_ERRHANDLER_NULL) return MPI_SUCCESS;
  return error(MPI_COMM_WORLD, MPI_ERR_OTHER, "{}",
               r.finalized ? "called after MPI_Finalize" : "called before MPI_Init");
}

int ApiCall::check_comm(MPI_Comm h, Comm*& out) {
  if (int e = check_init()) return e;
  out = w.comm(h);
  if (!out)
    return error(MPI_COMM_WORLD, MPI_ERR_COMM, "invalid communicator {:#x}",
                 static_cast<unsigned>(h));
  // Handles are shared by the ranks of a host process: catch one that this rank freed or never
  // received (the bit test is a few instructions; the member lookup O(log n) at worst).
  if (!out->self && h != MPI_COMM_WORLD &&
      (!holds_context(r, out->context) || out->rank_of(r.id) == MPI_UNDEFINED))
    return error(MPI_COMM_WORLD, MPI_ERR_COMM,
                 "communicator {:#x} is not one of this rank's (freed, or of other ranks)",
                 static_cast<unsigned>(h));
  return MPI_SUCCESS;
}

int ApiCall::invalid_rank(const Comm& c, int rank, const char* what) {
  return error(c.handle, MPI_ERR_RANK, "invalid {} rank {} ({} has {} ranks{})", what, rank,
               c.label(), c.peer_count(), c.inter() ? " in its remote group" : "");
}

int ApiCall::check_intracomm(MPI_Comm h, Comm*& out) {
  if (int e = check_comm(h, out)) return e;
  return out->inter() ? refuse_intercomm(*out) : MPI_SUCCESS;
}

int ApiCall::refuse_intercomm(const Comm& c) {
  return error(c.handle, MPI_ERR_COMM, "{} on an intercommunicator is not supported by mpisim",
               name);
}

int ApiCall::invalid_tag(const Comm& c, int tag, bool allow_any) {
  return error(c.handle, MPI_ERR_TAG, "invalid tag {} (valid: 0 to {}{})", tag, kTagUpperBound,
               allow_any ? " or MPI_ANY_TAG" : "");
}

int ApiCall::invalid_count(const Comm& c, long count) {
  return error(c.handle, MPI_ERR_COUNT, "invalid count {} (must be >= 0)", count);
}

int ApiCall::check_type(const Comm& c, MPI_Datatype h, const Datatype*& out) {
  out = w.datatype(h);
  if (!out)
    return error(c.handle, MPI_ERR_TYPE, "invalid datatype {:#x}", static_cast<unsigned>(h));
  if (!out->committed)
    return error(c.handle, MPI_ERR_TYPE, "datatype {:#x} is not committed (call MPI_Type_commit)",
                 static_cast<unsigned>(h));
  return MPI_SUCCESS;
}

int ApiCall::null_buffer(const Comm& c, long count) {
  return error(c.handle, MPI_ERR_BUFFER, "null buffer with count {}", count);
}

int ApiCall::check_root(const Comm& c, int root) {
  if (root >= 0 && root < c.size) return MPI_SUCCESS;
  return error(c.handle, MPI_ERR_ROOT, "invalid root {} ({} has {} ranks)", root, c.label(),
               c.size);
}

int ApiCall::check_op(const Comm& c, MPI_Op h, const Datatype& type, const Op*& out) {
  out = w.op(h);
  if (!out) return error(c.handle, MPI_ERR_OP, "invalid operation {:#x}", static_cast<unsigned>(h));
  if (!op_applies_to(*out, type))
    return error(c.handle, MPI_ERR_OP, "{} is not defined for datatype {}", out->name,
                 type.name                         ? type.name
                 : type.basic == MPI_DATATYPE_NULL ? "(derived, of mixed basic types)"
                                                   : "(derived)");
  return MPI_SUCCESS;
}

} // namespace mpilite
