// The frame of a collective MPI call, blocking or not: argument checks that follow MPI's rules
// for collectives, the schedule the call builds, and how the call completes.
#pragma once

#include <memory>
#include <vector>

#include "api_call.hpp"
#include "collective_schedule.hpp"

namespace mpilite {

/// One of `types` that MPI_BOTTOM may go with (one of absolute addresses), or null.
inline const Datatype* absolute_one(const std::vector<const Datatype*>& types) {
  for (const Datatype* t : types)
    if (null_buffer_allowed(1, t)) return t;
  return nullptr;
}

class CollectiveCall {
public:
  /// A blocking collective on `comm`.
  CollectiveCall(const char* name, MPI_Comm comm);
  /// A non-blocking one, whose request goes to `*request`.
  CollectiveCall(const char* name, MPI_Comm comm, MPI_Request* request);

  ApiCall c;

  /// Checks the communicator (and the request pointer); the other checks need it. An
  /// intercommunicator is refused unless the call runs on one (`inter_ok`).
  int begin(bool inter_ok = false);
  bool inter() const { return comm_->inter(); }
  /// How many ranks' blocks a buffer of all of them holds: the remote group's size on an
  /// intercommunicator.
  int blocks() const { return comm_->peer_count(); }
  const Comm& comm() const { return *comm_; }
  int rank() const { return comm_->rank_of(c.r.id); }

  // Argument checks: each returns MPI_SUCCESS or the result of ApiCall::error.
  int count(long n) { return c.check_count(*comm_, n); }
  int type(MPI_Datatype h, const Datatype*& out) { return c.check_type(*comm_, h, out); }
  int root(int r) { return c.check_root(*comm_, r); }
  /// The root of a rooted collective on an intercommunicator: MPI_ROOT, MPI_PROC_NULL or a rank
  /// of the remote group.
  int inter_root(int r);
  /// What the caller's arguments of a rooted collective describe: the root's buffer of every
  /// block (`all`), its own block (`own`). On an intercommunicator the root has only the first,
  /// the other group only the second, and the rest of the root's group neither.
  struct Roles {
    bool all, own;
  };
  /// Checks `root` (as inter_root on an intercommunicator) and sets `out`.
  int roles(int root, Roles& out);
  /// Checks the op of a reduction; the schedule will apply it.
  int op(MPI_Op h, const Datatype& type, const Op*& out) {
    if (int e = c.check_op(*comm_, h, type, out)) return e;
    op_ = out;
    return MPI_SUCCESS;
  }
  /// A null buffer is MPI_BOTTOM when `type` places its data at absolute addresses.
  int buffer(const void* buf, long n, const Datatype* type = nullptr) {
    return c.check_buffer(*comm_, buf, n, type);
  }
  /// An array of one count per block (or `entries` counts): present, none negative. Sets `total`
  /// to their sum.
  int counts(const int* counts, const char* what, long& total, int entries = -1);
  /// An array of one displacement per block, or `entries` (when some count is not zero).
  int displacements(const void* displs, const char* what, long total, int entries = -1);
  /// MPI_IN_PLACE where MPI does not allow it.
  int not_in_place(const void* buf, const char* what);
  /// MPI_IN_PLACE as the send buffer of a collective on an intercommunicator (MPI has no in-place
  /// form there: no rank sends to itself).
  int no_in_place_on_inter(const void* sendbuf) {
    return inter() ? not_in_place(sendbuf, "the send buffer on an intercommunicator") : MPI_SUCCESS;
  }
  /// The same buffer passed as input and output (MPI_IN_PLACE is the way to say that).
  int not_aliased(const void* sendbuf, const void* recvbuf, bool has_data);

  /// The schedule of this call, made on first use: only once every check has passed (a fatal
  /// error never returns to free it).
  Schedule& schedule();
  /// Runs `body` (an algorithm on schedule()) to completion when blocking, or starts it and hands
  /// out its request.
  int finish(CollTask body);

private:
  MPI_Comm handle_;
  Comm* comm_ = nullptr;
  MPI_Request* request_ = nullptr;
  bool nonblocking_ = false;
  const Op* op_ = nullptr;
  std::shared_ptr<Schedule> schedule_; ///< owned by its request once started
};

} // namespace mpilite
