// The frame of a collective MPI call, blocking or not: argument checks that follow MPI's rules
// for collectives, the schedule the call builds, and how the call completes.
#pragma once

#include <functional>
#include <memory>
#include <string>
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

/// 1 if `buf` is MPI_IN_PLACE, else 0, as a record writes it: replay passes MPI_IN_PLACE again,
/// since a collective's in-place form may cost otherwise.
inline int in_place_flag(const void* buf) {
  return buf == MPI_IN_PLACE ? 1 : 0;
}

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

  /// Records the collective as `op` (its blocking form's name) with `args`, the arguments every
  /// form of it records. Called once they have passed their checks: a call that fails them did
  /// nothing for replay to do. The form adds the rest: the communicator, then the request of a
  /// non-blocking call (named `i` `op`) or of a persistent one's init call (`op` `_init`); a start
  /// is MPI_Start's own line. finish() writes the line, or write_record() for an init call.
  template <class... Args> void record(const char* op, const Args&... args);

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
  /// Writes the blocking or non-blocking call's record.
  int finish(CollTask body);
  /// Writes what record() kept, if the run is being recorded: by the init call of a persistent
  /// collective once its request is made (finish() writes the other forms' lines).
  void write_record();

private:
  enum class Form {
    Blocking,
    Nonblocking,
    PersistentInit,  ///< checks only: nothing runs
    PersistentStart, ///< runs as the non-blocking form; MPI_Start records it
  };

  MPI_Comm handle_;
  Form form_;
  Comm* comm_ = nullptr;
  MPI_Request* request_ = nullptr;
  HeldHandles* held_ = nullptr;
  const Op* op_ = nullptr;
  std::shared_ptr<Schedule> schedule_; ///< owned by its request once started
  /// The line record() made: kept, since a non-blocking or persistent call's request is not yet
  /// known when its arguments have passed their checks.
  std::function<void(CollectiveCall&)> record_;
};

template <class... Args> void CollectiveCall::record(const char* op, const Args&... args) {
  if (!c.w.op_log || form_ == Form::PersistentStart) return;
  record_ = [op, args...](CollectiveCall& k) {
    OpLog& log = *k.c.w.op_log;
    const CommArg comm{k.handle_};
    if (k.form_ == Form::Blocking) return log.record(k.c, op, args..., comm);
    const std::string name =
        k.form_ == Form::Nonblocking ? fmt::format("i{}", op) : fmt::format("{}_init", op);
    log.record(k.c, name.c_str(), args..., comm, NewRequestArg{*k.request_});
  };
}

/// How a persistent collective starts: its collective's checks and schedule, with the arguments
/// of its init call, on the frame it is given.
using CollectiveStart = std::function<int(CollectiveCall&)>;

/// The init call of a persistent collective (MPI_Bcast_init, ...): checks the arguments as
/// `start` does, and makes the persistent request whose every MPI_Start runs `start` as the
/// matching non-blocking collective (MPI_Ibcast, ...) would, at the same simulated cost.
int init_persistent_collective(const char* name, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                               CollectiveStart start);

} // namespace mpilite
