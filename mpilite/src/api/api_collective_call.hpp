// The frame of a collective MPI call, blocking or not: argument checks that follow MPI's rules
// for collectives, the schedule the call builds, and how the call completes.
#pragma once

#include <functional>
#include <memory>
#include <utility>
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

/// The derived types and user operations a persistent collective's arguments named, copied
/// when it was made: the program may free them before it starts the collective again, and every
/// start resolves the same handles to these copies (MPI binds the arguments at the init call).
class HeldHandles {
public:
  /// The copy held for `h`, or null.
  const Datatype* type(MPI_Datatype h) const;
  const Op* op(MPI_Op h) const;
  /// Holds a copy of `t` (of `o`) for `h` and returns it.
  const Datatype* hold_type(MPI_Datatype h, const Datatype& t);
  const Op* hold_op(MPI_Op h, const Op& o);

private:
  std::vector<std::pair<MPI_Datatype, std::unique_ptr<const Datatype>>> types_;
  std::vector<std::pair<MPI_Op, std::unique_ptr<const Op>>> ops_;
};

class CollectiveCall {
public:
  /// A blocking collective on `comm`.
  CollectiveCall(const char* name, MPI_Comm comm);
  /// A non-blocking one, whose request goes to `*request`.
  CollectiveCall(const char* name, MPI_Comm comm, MPI_Request* request);
  /// A persistent one (MPI_Bcast_init, ...), its handles resolved through `held`: when it is
  /// made (`starting` false) its arguments are checked and nothing runs; at each MPI_Start it
  /// runs as the non-blocking collective, whose request goes to `*request`.
  CollectiveCall(const char* name, MPI_Comm comm, MPI_Request* request, HeldHandles& held,
                 bool starting);

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
  /// Whether the caller is the root of a rooted collective: on an intercommunicator, the rank
  /// that passed MPI_ROOT.
  bool is_root(int root) const { return inter() ? root == MPI_ROOT : rank() == root; }

  // Argument checks: each returns MPI_SUCCESS or the result of ApiCall::error.
  int count(long n) { return c.check_count(*comm_, n); }
  int type(MPI_Datatype h, const Datatype*& out);
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
  int op(MPI_Op h, const Datatype& type, const Op*& out);
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
  /// out its request; a persistent collective being made drops it (each start builds it anew).
  int finish(CollTask body);

private:
  MPI_Comm handle_;
  Comm* comm_ = nullptr;
  MPI_Request* request_ = nullptr;
  bool nonblocking_ = false;
  HeldHandles* held_ = nullptr;
  bool check_only_ = false;
  const Op* op_ = nullptr;
  std::shared_ptr<Schedule> schedule_; ///< owned by its request once started
};

/// Records a non-blocking collective that started (`e` MPI_SUCCESS) as its blocking form's line,
/// its name after an `i` and its request after the arguments: once started, so that the request
/// is known.
#define MPISIM_RECORD_ICOLLECTIVE(k, e, request, op, ...)                                          \
  do {                                                                                             \
    if ((e) == MPI_SUCCESS)                                                                        \
      MPISIM_RECORD_OP((k).c, "i" op, __VA_ARGS__, NewRequestArg{*(request)});                     \
  } while (0)

/// Records a persistent collective made by the init call of frame `k` as its blocking form's
/// line, its name before `_init` and its request after the arguments (the non-blocking form's
/// line with another name: replay makes it again with the same arguments).
#define MPISIM_RECORD_PCOLLECTIVE(k, request, op, ...)                                             \
  MPISIM_RECORD_OP((k).c, op "_init", __VA_ARGS__, NewRequestArg{*(request)})

/// How a persistent collective starts: its collective's checks and schedule, with the arguments
/// of its init call, on the frame it is given.
using CollectiveStart = std::function<int(CollectiveCall&)>;
/// How the init call of a persistent collective is recorded (MPISIM_RECORD_PCOLLECTIVE), on the
/// init call's frame once its request is made.
using CollectiveRecord = std::function<void(CollectiveCall&)>;

/// The init call of a persistent collective (MPI_Bcast_init, ...): checks the arguments as
/// `start` does, and makes the persistent request whose every MPI_Start runs `start` as the
/// matching non-blocking collective (MPI_Ibcast, ...) would, at the same simulated cost.
int init_persistent_collective(const char* name, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                               CollectiveStart start, const CollectiveRecord& record);

} // namespace mpilite
