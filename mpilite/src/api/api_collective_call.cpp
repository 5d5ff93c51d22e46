#include "api_collective_call.hpp"

namespace mpilite {

CollectiveCall::CollectiveCall(const char* name, MPI_Comm comm)
    : c(name), handle_(comm), form_(Form::Blocking) {}

CollectiveCall::CollectiveCall(const char* name, MPI_Comm comm, MPI_Request* request)
    : c(name), handle_(comm), form_(Form::Nonblocking), request_(request) {}

CollectiveCall::CollectiveCall(const char* name, MPI_Comm comm, MPI_Request* request,
                               HeldHandles& held, bool starting)
    : c(name), handle_(comm), form_(starting ? Form::PersistentStart : Form::PersistentInit),
      request_(request), held_(&held) {}

const Datatype* HeldHandles::type(MPI_Datatype h) const {
  for (const auto& [handle, t] : types_)
    if (handle == h) return t.get();
  return nullptr;
}

const Op* HeldHandles::op(MPI_Op h) const {
  for (const auto& [handle, o] : ops_)
    if (handle == h) return o.get();
  return nullptr;
}

const Datatype* HeldHandles::hold_type(MPI_Datatype h, const Datatype& t) {
  return types_.emplace_back(h, std::make_unique<const Datatype>(t)).second.get();
}

const Op* HeldHandles::hold_op(MPI_Op h, const Op& o) {
  return ops_.emplace_back(h, std::make_unique<const Op>(o)).second.get();
}

int CollectiveCall::type(MPI_Datatype h, const Datatype*& out) {
  if (held_ && (out = held_->type(h))) return MPI_SUCCESS;
  if (int e = c.check_type(*comm_, h, out)) return e;
  if (held_ && !out->predefined) out = held_->hold_type(h, *out);
  return MPI_SUCCESS;
}

int CollectiveCall::op(MPI_Op h, const Datatype& type, const Op*& out) {
  if (held_ && (out = held_->op(h))) {
    op_ = out;
    return MPI_SUCCESS;
  }
  if (int e = c.check_op(*comm_, h, type, out)) return e;
  if (held_ && !builtin_op(h)) out = held_->hold_op(h, *out);
  op_ = out;
  return MPI_SUCCESS;
}

int CollectiveCall::begin(bool inter_ok) {
  if (int e = c.check_comm(handle_, comm_)) return e;
  if (comm_->inter() && !inter_ok) return c.refuse_intercomm(*comm_);
  c.collective(handle_);
  if (form_ != Form::Blocking && !request_)
    return c.error(handle_, MPI_ERR_ARG, "null pointer for the request (MPI_Request*)");
  return MPI_SUCCESS;
}

int CollectiveCall::counts(const int* counts, const char* what, long& total, int entries) {
  total = 0;
  if (entries < 0) entries = blocks();
  if (!counts && entries > 0)
    return c.error(handle_, MPI_ERR_ARG, "null array of {} ({} entries expected)", what, entries);
  for (int i = 0; i < entries; ++i) {
    if (counts[i] < 0)
      return c.error(handle_, MPI_ERR_COUNT, "invalid count {} in {}[{}] (must be >= 0)", counts[i],
                     what, i);
    total += counts[i];
  }
  return MPI_SUCCESS;
}

int CollectiveCall::displacements(const void* displs, const char* what, long total, int entries) {
  if (displs || total == 0) return MPI_SUCCESS;
  return c.error(handle_, MPI_ERR_ARG, "null array of {} ({} entries expected)", what,
                 entries < 0 ? blocks() : entries);
}

int CollectiveCall::inter_root(int r) {
  if (r == MPI_ROOT || r == MPI_PROC_NULL || (r >= 0 && r < comm_->peer_count()))
    return MPI_SUCCESS;
  return c.error(handle_, MPI_ERR_ROOT,
                 "invalid root {} on intercommunicator {} (MPI_ROOT, MPI_PROC_NULL or a rank of "
                 "its remote group of {})",
                 r, comm_->label(), comm_->peer_count());
}

int CollectiveCall::roles(int root, Roles& out) {
  if (inter()) {
    out = {root == MPI_ROOT, root >= 0};
    return inter_root(root);
  }
  out = {rank() == root, true};
  return c.check_root(*comm_, root);
}

int CollectiveCall::not_in_place(const void* buf, const char* what) {
  if (buf != MPI_IN_PLACE) return MPI_SUCCESS;
  return c.error(handle_, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as {}", what);
}

int CollectiveCall::not_aliased(const void* sendbuf, const void* recvbuf, bool has_data) {
  if (!has_data || sendbuf != recvbuf || sendbuf == MPI_IN_PLACE || !sendbuf) return MPI_SUCCESS;
  return c.error(handle_, MPI_ERR_BUFFER,
                 "the send and receive buffers are the same (pass MPI_IN_PLACE as the send "
                 "buffer to reuse it)");
}

Schedule& CollectiveCall::schedule() {
  if (!schedule_) {
    schedule_ = std::make_shared<Schedule>(c.w, c.r, *comm_);
    if (op_) schedule_->set_op(*op_);
  }
  return *schedule_;
}

int CollectiveCall::finish(CollTask body) {
  if (form_ == Form::PersistentInit) return MPI_SUCCESS;
  schedule().set_body(std::move(body));
  if (form_ != Form::Blocking) {
    *request_ = start_schedule(std::move(schedule_))->handle;
    write_record();
    return MPI_SUCCESS;
  }
  // Before it runs: a run that ends within it (a deadlock, a fatal error) still records it.
  write_record();
  const int error = run_schedule(c.w, c.r, std::move(schedule_));
  if (error == MPI_SUCCESS) return MPI_SUCCESS;
  if (error == MPI_ERR_TRUNCATE)
    return c.error(handle_, error,
                   "a message of this collective did not fit its receive buffer (the ranks "
                   "passed counts or types that do not match)");
  return c.error(handle_, error, "{}", error_class_text(error));
}

void CollectiveCall::write_record() {
  if (record_) record_(*this);
}

} // namespace mpilite
