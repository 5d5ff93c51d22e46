// MPI entry points: one-sided operations and active target synchronization (MPI-3.1 sections
// 11.3, 11.5.1, 11.5.2). MPI_Put, MPI_Get and MPI_Accumulate queue an operation; the epoch's end
// (MPI_Win_fence, MPI_Win_complete at the origin and MPI_Win_wait at the target) carries the
// operations out as messages on the window's communicator, served at the target in the order of
// origin ranks and, per origin, of issue: the result is the same on any number of host processes
// (docs/model.md, One-sided communication).
#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "api_win.hpp"
#include "datatype_wire.hpp"
#include "op.hpp"
#include "p2p.hpp"
#include "rma_apply.hpp"

using namespace mpilite;

namespace {

constexpr int kOpTag = 1;    ///< an operation, origin to target
constexpr int kReplyTag = 2; ///< a get's data, target to origin
constexpr int kCountTag = 3; ///< MPI_Win_complete: how many operations follow

/// A buffer of the origin: data it sends or receives.
struct OriginBuffer {
  const void* addr = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
};

/// Where at the target an operation acts.
struct TargetPlace {
  int rank = MPI_PROC_NULL;
  MPI_Aint disp = 0;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
};

/// One operation as the program gave it: the data it sends (origin), the data it gets back
/// (result), and where at the target.
struct RmaArgs {
  RmaKind kind;
  OriginBuffer origin;
  OriginBuffer result;
  TargetPlace target;
  MPI_Op op = MPI_NO_OP;
  const void* compare = nullptr; ///< MPI_Compare_and_swap
};

bool sends_data(const RmaArgs& a) {
  return a.kind != RmaKind::Get && !(a.kind == RmaKind::GetAccumulate && a.op == MPI_NO_OP);
}

/// Checks a (buffer, count, type) of the origin against the target's data; its type in `out`.
int check_side(ApiCall& c, const Window& w, const void* buf, int count, MPI_Datatype type,
               const Datatype& target, int target_count, const char* what, const Datatype*& out) {
  const Comm& cm = *c.w.comm(w.comm);
  if (int e = c.check_count(cm, count)) return e;
  if (int e = c.check_type(cm, type, out)) return e;
  if (int e = c.check_buffer(cm, buf, count, out)) return e;
  const std::size_t bytes = static_cast<std::size_t>(count) * out->size;
  if (bytes != static_cast<std::size_t>(target_count) * target.size)
    return win_error(c, w, MPI_ERR_TYPE, "the {}'s {} bytes of data and the target's {} differ",
                     what, bytes, static_cast<std::size_t>(target_count) * target.size);
  return MPI_SUCCESS;
}

/// Checks that `op` of an accumulate applies to the target's data.
int check_accumulate_op(ApiCall& c, const Window& w, const RmaArgs& a, const Datatype& target,
                        const Datatype* origin) {
  if (a.op == MPI_REPLACE || (a.op == MPI_NO_OP && a.kind == RmaKind::GetAccumulate))
    return MPI_SUCCESS;
  const Op* o = builtin_op(a.op);
  const Datatype* basic =
      target.basic != MPI_DATATYPE_NULL ? builtin_datatype(target.basic) : nullptr;
  if (!o || o->handle == MPI_NO_OP)
    return win_error(c, w, MPI_ERR_OP, "{} needs a predefined operation", c.name);
  if (!basic || (origin && origin->basic != target.basic) || !op_applies_to(*o, *basic))
    return win_error(
        c, w, MPI_ERR_OP,
        "{}: the operation does not apply to these datatypes (both must consist of one "
        "predefined type it is defined for)",
        c.name);
  return MPI_SUCCESS;
}

/// Checks that an operation stays inside its target's window (as the target's size and
/// displacement unit were when the window was made). The memory attached to a dynamic window
/// changes: its target checks.
int check_range(ApiCall& c, const Window& w, const TargetPlace& t, const Datatype& type) {
  if (t.count == 0 || w.flavor == MPI_WIN_FLAVOR_DYNAMIC) return MPI_SUCCESS;
  const WindowTarget& at = w.targets[static_cast<std::size_t>(t.rank)];
  const TouchedBytes b = touched_bytes(t.disp, at.disp_unit, t.count, type, at.size);
  if (!b.inside)
    return win_error(c, w, MPI_ERR_RMA_RANGE,
                     "the operation reaches bytes {} to {} of the window of rank {}, which has {} "
                     "bytes",
                     b.first, b.end, t.rank, at.size);
  return MPI_SUCCESS;
}

/// Checks that an access epoch to `target` is open: a fence, a start whose group holds it, or a
/// lock (MPI_Win_lock_all opens one to any target on its first operation).
int check_epoch(ApiCall& c, Window& w, int target) {
  if (in_lock_epoch(w, target)) {
    w.locks.try_emplace(target, LockEpoch{MPI_LOCK_SHARED, false}); // lock_all: on first use
    return MPI_SUCCESS;
  }
  if (w.fence_epoch) return MPI_SUCCESS;
  if (!w.access_epoch)
    return win_error(c, w, MPI_ERR_RMA_SYNC,
                     "no access epoch to rank {} is open on the window: call MPI_Win_fence, "
                     "MPI_Win_start or MPI_Win_lock first",
                     target);
  if (std::find(w.access.begin(), w.access.end(), target) == w.access.end())
    return win_error(c, w, MPI_ERR_RMA_SYNC, "target rank {} is not in the group of MPI_Win_start",
                     target);
  return MPI_SUCCESS;
}

/// Records an operation as `NAME WIN TARGET DISP TCOUNT TTYPE OCOUNT OTYPE RCOUNT RTYPE OP`,
/// and its request if it has one ("r" before the name): the target's datatype whole, as it
/// travels, the origin's and the result's by size, as point-to-point data is.
void record_rma(ApiCall& c, MPI_Win win, const RmaArgs& a, const MPI_Request* request) {
  // By RmaKind; MPI has no request-based compare-and-swap.
  static constexpr const char* kNames[] = {"put", "get", "accumulate", "get_accumulate",
                                           "compare_and_swap"};
  static constexpr const char* kRequestNames[] = {"rput", "rget", "raccumulate", "rget_accumulate",
                                                  nullptr};
  const auto kind = static_cast<std::size_t>(a.kind);
  if (request)
    MPISIM_RECORD_OP(c, kRequestNames[kind], WinArg{win}, a.target.rank, a.target.disp,
                     a.target.count, TargetTypeArg{a.target.type}, a.origin.count,
                     TypeArg{a.origin.type}, a.result.count, TypeArg{a.result.type}, OpArg{a.op},
                     NewRequestArg{*request});
  else
    MPISIM_RECORD_OP(c, kNames[kind], WinArg{win}, a.target.rank, a.target.disp, a.target.count,
                     TargetTypeArg{a.target.type}, a.origin.count, TypeArg{a.origin.type},
                     a.result.count, TypeArg{a.result.type}, OpArg{a.op});
}

/// The checks of every one-sided operation, and the queued operation.
int queue_op(ApiCall& c, MPI_Win win, const RmaArgs& a) {
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  c.raise_on_window(w->handle, w->errhandler);
  const Comm& cm = *c.w.comm(w->comm);
  const Datatype* tt;
  if (int e = c.check_count(cm, a.target.count)) return e;
  if (int e = c.check_type(cm, a.target.type, tt)) return e;
  if (int e = c.check_rank(cm, a.target.rank, false, "target")) return e;
  const Datatype* ot = nullptr;
  const Datatype* rt = nullptr;
  if (sends_data(a))
    if (int e = check_side(c, *w, a.origin.addr, a.origin.count, a.origin.type, *tt, a.target.count,
                           "origin", ot))
      return e;
  if (rma_returns_data(a.kind))
    if (int e = check_side(c, *w, a.result.addr, a.result.count, a.result.type, *tt, a.target.count,
                           "result", rt))
      return e;
  if (a.kind == RmaKind::Accumulate || a.kind == RmaKind::GetAccumulate)
    if (int e = check_accumulate_op(c, *w, a, *tt, ot)) return e;
  if (a.kind == RmaKind::CompareSwap && (!tt->predefined || a.target.count != 1 || !a.compare))
    return win_error(c, *w, MPI_ERR_TYPE,
                     "MPI_Compare_and_swap works on one element of a predefined type");
  if (a.target.rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (int e = check_range(c, *w, a.target, *tt)) return e;
  if (int e = check_epoch(c, *w, a.target.rank)) return e;
  RmaOp q;
  q.kind = a.kind;
  q.target = a.target.rank;
  q.bytes = static_cast<std::size_t>(a.target.count) * tt->size;
  append_bytes(q.message,
               RmaHeader{a.kind, a.target.disp, a.target.count, sends_data(a) ? a.op : MPI_NO_OP});
  encode_layout(*tt, q.message);
  if (sends_data(a)) {
    const std::size_t at = q.message.size();
    q.message.resize(at + q.bytes);
    pack(a.origin.addr, static_cast<std::size_t>(a.origin.count), *ot, q.message.data() + at);
  }
  if (a.kind == RmaKind::CompareSwap) {
    const std::size_t at = q.message.size();
    q.message.resize(at + q.bytes);
    std::memcpy(q.message.data() + at, a.compare, q.bytes);
  }
  if (rma_returns_data(a.kind)) {
    q.result_addr = const_cast<void*>(a.result.addr);
    q.result_type = std::make_shared<Datatype>(*rt);
  }
  w->ops.push_back(std::move(q));
  return MPI_SUCCESS;
}

/// An operation of an epoch (MPI_Put, ...): queued and recorded.
int issue(ApiCall& c, MPI_Win win, const RmaArgs& a) {
  if (int e = queue_op(c, win, a)) return e;
  record_rma(c, win, a, nullptr);
  return MPI_SUCCESS;
}

/// A request-based operation (MPI_Rput, ...): allowed in passive target epochs only. It is
/// sent at once, with the operations queued for its target before it, and its request
/// completes when the target's reply has come, as MPI_Win_flush would.
int issue_request(ApiCall& c, MPI_Win win, const RmaArgs& a, MPI_Request* request) {
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!request) return win_error(c, *w, MPI_ERR_ARG, "null request argument");
  const int target = a.target.rank;
  if (target != MPI_PROC_NULL && !in_lock_epoch(*w, target))
    return win_error(
        c, *w, MPI_ERR_RMA_SYNC,
        "{} needs a passive target epoch to rank {} (MPI_Win_lock or MPI_Win_lock_all)", c.name,
        target);
  if (int e = queue_op(c, win, a)) return e;
  Request* q = target == MPI_PROC_NULL ? nullptr : start_batch(c, *w, target, false);
  *request = (q ? q : completed_request(c.w, c.r, RequestKind::Send))->handle;
  record_rma(c, win, a, request);
  return MPI_SUCCESS;
}

/// The first operation a target could not carry out in an active-target epoch (a dynamic
/// window's range): raised once the epoch's other operations are served, so that none of them
/// is left for the next epoch to take as its own.
struct Refused {
  int code = MPI_SUCCESS;
  std::string why;
  int raise(ApiCall& c, const Window& w) const {
    return code == MPI_SUCCESS ? MPI_SUCCESS : win_error(c, w, code, "{}", why);
  }
};

/// Carries out at this target one operation that `source` sent.
void serve_one(Window& w, int source, RmaReplies& replies, Refused& refused) {
  MPI_Status st;
  PMPI_Probe(source, kOpTag, w.comm, &st);
  int n = 0;
  PMPI_Get_count(&st, MPI_BYTE, &n);
  std::vector<std::byte> msg(static_cast<std::size_t>(n));
  PMPI_Recv(msg.data(), n, MPI_BYTE, source, kOpTag, w.comm, MPI_STATUS_IGNORE);
  RmaHeader h;
  std::memcpy(&h, msg.data(), sizeof h);
  std::vector<std::byte> out;
  std::string why;
  if (int e = apply_rma(w, source, msg, out, why); e && refused.code == MPI_SUCCESS)
    refused = {e, std::move(why)};
  if (!rma_returns_data(h.kind)) return;
  // A refused operation's reply carries no data: its origin is not left waiting for one.
  std::vector<std::byte>& data = replies.data.emplace_back(std::move(out));
  PMPI_Isend(data.data(), static_cast<int>(data.size()), MPI_BYTE, source, kReplyTag, w.comm,
             &replies.requests.emplace_back());
}

/// Serves every operation the origins of this rank's exposure epoch (MPI_Win_post's group) send
/// in their MPI_Win_complete; the replies' sends stay in the window until MPI_Win_wait.
void serve_exposure(Window& w, Refused& refused) {
  for (int s : w.exposure) {
    int n = 0;
    PMPI_Recv(&n, 1, MPI_INT, s, kCountTag, w.comm, MPI_STATUS_IGNORE);
    for (int k = 0; k < n; ++k)
      serve_one(w, s, w.exposure_replies, refused);
  }
  w.exposure_served = true;
}

/// Sends the window's queued operations to their targets.
void send_ops(Window& w, std::vector<MPI_Request>& requests) {
  for (RmaOp& q : w.ops)
    PMPI_Isend(q.message.data(), static_cast<int>(q.message.size()), MPI_BYTE, q.target, kOpTag,
               w.comm, &requests.emplace_back());
}

/// Receives the data of the window's operations that return some (gets and atomics), in the
/// order they were issued, waits for `sent` (the operations' messages), and only then forgets
/// the operations: a message above the eager limit is read from its buffer when its target
/// receives it, which may come after the replies.
void finish_ops(Window& w, std::vector<MPI_Request>& sent) {
  for (RmaOp& q : w.ops) {
    if (!rma_returns_data(q.kind)) continue;
    std::vector<std::byte> data(q.bytes);
    MPI_Status st;
    PMPI_Recv(data.data(), static_cast<int>(q.bytes), MPI_BYTE, q.target, kReplyTag, w.comm, &st);
    int got = 0;
    PMPI_Get_count(&st, MPI_BYTE, &got);
    // An operation its target refused (serve_one) returns nothing, and leaves the buffer alone.
    if (static_cast<std::size_t>(got) == q.bytes)
      unpack(data.data(), q.bytes, *q.result_type, q.result_addr);
  }
  PMPI_Waitall(static_cast<int>(sent.size()), sent.data(), MPI_STATUSES_IGNORE);
  w.ops.clear();
}

/// The ranks of `group` in the window's communicator, ascending.
int ranks_of(ApiCall& c, const Window& w, MPI_Group group, std::vector<int>& out) {
  int n = 0;
  if (int e = PMPI_Group_size(group, &n)) return e;
  std::vector<int> mine(static_cast<std::size_t>(n));
  std::iota(mine.begin(), mine.end(), 0);
  MPI_Group all;
  PMPI_Comm_group(w.comm, &all);
  out.assign(static_cast<std::size_t>(n), MPI_UNDEFINED);
  PMPI_Group_translate_ranks(group, n, mine.data(), all, out.data());
  PMPI_Group_free(&all);
  if (std::find(out.begin(), out.end(), MPI_UNDEFINED) != out.end())
    return win_error(c, w, MPI_ERR_GROUP, "the group holds ranks outside the window");
  std::sort(out.begin(), out.end());
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win) {
  ApiCall c("MPI_Put");
  return issue(c, win,
               {RmaKind::Put,
                {origin_addr, origin_count, origin_datatype},
                {},
                {target_rank, target_disp, target_count, target_datatype},
                MPI_REPLACE});
}
MPISIM_WEAK_ALIAS(Put)

int PMPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  ApiCall c("MPI_Get");
  return issue(c, win,
               {RmaKind::Get,
                {},
                {origin_addr, origin_count, origin_datatype},
                {target_rank, target_disp, target_count, target_datatype}});
}
MPISIM_WEAK_ALIAS(Get)

int PMPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  ApiCall c("MPI_Accumulate");
  return issue(c, win,
               {RmaKind::Accumulate,
                {origin_addr, origin_count, origin_datatype},
                {},
                {target_rank, target_disp, target_count, target_datatype},
                op});
}
MPISIM_WEAK_ALIAS(Accumulate)

int PMPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void* result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  ApiCall c("MPI_Get_accumulate");
  return issue(c, win,
               {RmaKind::GetAccumulate,
                {origin_addr, origin_count, origin_datatype},
                {result_addr, result_count, result_datatype},
                {target_rank, target_disp, target_count, target_datatype},
                op});
}
MPISIM_WEAK_ALIAS(Get_accumulate)

int PMPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  ApiCall c("MPI_Fetch_and_op");
  return issue(c, win,
               {RmaKind::GetAccumulate,
                {origin_addr, 1, datatype},
                {result_addr, 1, datatype},
                {target_rank, target_disp, 1, datatype},
                op});
}
MPISIM_WEAK_ALIAS(Fetch_and_op)

int PMPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Win win) {
  ApiCall c("MPI_Compare_and_swap");
  return issue(c, win,
               {RmaKind::CompareSwap,
                {origin_addr, 1, datatype},
                {result_addr, 1, datatype},
                {target_rank, target_disp, 1, datatype},
                MPI_REPLACE,
                compare_addr});
}
MPISIM_WEAK_ALIAS(Compare_and_swap)

int PMPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
              MPI_Win win, MPI_Request* request) {
  ApiCall c("MPI_Rput");
  return issue_request(c, win,
                       {RmaKind::Put,
                        {origin_addr, origin_count, origin_datatype},
                        {},
                        {target_rank, target_disp, target_count, target_datatype},
                        MPI_REPLACE},
                       request);
}
MPISIM_WEAK_ALIAS(Rput)

int PMPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request* request) {
  ApiCall c("MPI_Rget");
  return issue_request(c, win,
                       {RmaKind::Get,
                        {},
                        {origin_addr, origin_count, origin_datatype},
                        {target_rank, target_disp, target_count, target_datatype}},
                       request);
}
MPISIM_WEAK_ALIAS(Rget)

int PMPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  ApiCall c("MPI_Raccumulate");
  return issue_request(c, win,
                       {RmaKind::Accumulate,
                        {origin_addr, origin_count, origin_datatype},
                        {},
                        {target_rank, target_disp, target_count, target_datatype},
                        op},
                       request);
}
MPISIM_WEAK_ALIAS(Raccumulate)

int PMPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void* result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                         MPI_Request* request) {
  ApiCall c("MPI_Rget_accumulate");
  return issue_request(c, win,
                       {RmaKind::GetAccumulate,
                        {origin_addr, origin_count, origin_datatype},
                        {result_addr, result_count, result_datatype},
                        {target_rank, target_disp, target_count, target_datatype},
                        op},
                       request);
}
MPISIM_WEAK_ALIAS(Rget_accumulate)

int PMPI_Win_fence(int assert, MPI_Win win) {
  ApiCall c("MPI_Win_fence");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  c.collective(w->comm);
  if (w->access_epoch || w->exposure_epoch)
    return win_error(c, *w, MPI_ERR_RMA_SYNC,
                     "MPI_Win_fence inside a post/start epoch: end it with MPI_Win_complete or "
                     "MPI_Win_wait first");
  if (w->lock_all || !w->locks.empty())
    return win_error(c, *w, MPI_ERR_RMA_SYNC,
                     "MPI_Win_fence inside a lock epoch: end it with MPI_Win_unlock or "
                     "MPI_Win_unlock_all first");
  MPISIM_RECORD_OP(c, "win_fence", assert, WinArg{win});
  int p = 0;
  PMPI_Comm_size(w->comm, &p);
  // Each target learns how many operations it serves from each origin (as MPICH's fence does
  // with a reduce-scatter), then serves them origin by origin.
  std::vector<int> out(static_cast<std::size_t>(p), 0), in(static_cast<std::size_t>(p), 0);
  for (const RmaOp& q : w->ops)
    ++out[static_cast<std::size_t>(q.target)];
  PMPI_Alltoall(out.data(), 1, MPI_INT, in.data(), 1, MPI_INT, w->comm);
  std::vector<MPI_Request> sent;
  send_ops(*w, sent);
  RmaReplies replies;
  Refused refused;
  for (int s = 0; s < p; ++s)
    for (int k = 0; k < in[static_cast<std::size_t>(s)]; ++k)
      serve_one(*w, s, replies, refused);
  finish_ops(*w, sent);
  PMPI_Waitall(static_cast<int>(replies.requests.size()), replies.requests.data(),
               MPI_STATUSES_IGNORE);
  // The ranks of a shared-memory window read each other's memory with plain loads once the
  // fence returns (and MPICH's fence is a barrier): no rank leaves before every target has
  // applied what it was sent, and every rank's stores before the fence are there.
  if (w->flavor == MPI_WIN_FLAVOR_SHARED && !(assert& MPI_MODE_NOPRECEDE)) PMPI_Barrier(w->comm);
  w->fence_epoch = (assert& MPI_MODE_NOSUCCEED) == 0;
  return refused.raise(c, *w);
}
MPISIM_WEAK_ALIAS(Win_fence)

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  ApiCall c("MPI_Win_post");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (w->exposure_epoch)
    return win_error(c, *w, MPI_ERR_RMA_SYNC, "an exposure epoch is already open (MPI_Win_post)");
  if (int e = ranks_of(c, *w, group, w->exposure)) return e;
  MPISIM_RECORD_OP(c, "win_post", IntsArg{static_cast<int>(w->exposure.size()), w->exposure.data()},
                   assert, WinArg{win});
  w->exposure_epoch = true;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_post)

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  ApiCall c("MPI_Win_start");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (w->access_epoch)
    return win_error(c, *w, MPI_ERR_RMA_SYNC, "an access epoch is already open (MPI_Win_start)");
  if (int e = ranks_of(c, *w, group, w->access)) return e;
  MPISIM_RECORD_OP(c, "win_start", IntsArg{static_cast<int>(w->access.size()), w->access.data()},
                   assert, WinArg{win});
  w->access_epoch = true;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_start)

int PMPI_Win_complete(MPI_Win win) {
  ApiCall c("MPI_Win_complete");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!w->access_epoch)
    return win_error(c, *w, MPI_ERR_RMA_SYNC, "no access epoch is open (call MPI_Win_start)");
  MPISIM_RECORD_OP(c, "win_complete", WinArg{win});
  // Every target of the group learns how many operations follow, even none.
  std::vector<int> counts(w->access.size(), 0);
  for (const RmaOp& q : w->ops)
    ++counts[static_cast<std::size_t>(
        std::lower_bound(w->access.begin(), w->access.end(), q.target) - w->access.begin())];
  std::vector<MPI_Request> sent;
  for (std::size_t i = 0; i < w->access.size(); ++i)
    PMPI_Isend(&counts[i], 1, MPI_INT, w->access[i], kCountTag, w->comm, &sent.emplace_back());
  send_ops(*w, sent);
  // Its origins may be waiting in their own MPI_Win_complete for this rank's replies (each rank
  // of a ring gets from its neighbour): serve them before waiting for the replies it needs.
  Refused refused;
  if (w->exposure_epoch && !w->exposure_served) serve_exposure(*w, refused);
  finish_ops(*w, sent);
  w->access_epoch = false;
  return refused.raise(c, *w);
}
MPISIM_WEAK_ALIAS(Win_complete)

int PMPI_Win_wait(MPI_Win win) {
  ApiCall c("MPI_Win_wait");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!w->exposure_epoch)
    return win_error(c, *w, MPI_ERR_RMA_SYNC, "no exposure epoch is open (call MPI_Win_post)");
  MPISIM_RECORD_OP(c, "win_wait", WinArg{win});
  Refused refused;
  if (!w->exposure_served) serve_exposure(*w, refused);
  RmaReplies& replies = w->exposure_replies;
  PMPI_Waitall(static_cast<int>(replies.requests.size()), replies.requests.data(),
               MPI_STATUSES_IGNORE);
  replies = {};
  w->exposure_served = false;
  w->exposure_epoch = false;
  return refused.raise(c, *w);
}
MPISIM_WEAK_ALIAS(Win_wait)

int PMPI_Win_test(MPI_Win win, int* flag) {
  ApiCall c("MPI_Win_test");
  if (!flag) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null flag argument");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  MPISIM_RECORD_OP(c, "win_test", WinArg{win});
  // The epoch ends once every origin of its group has called MPI_Win_complete, whose first
  // message is the count of its operations: until each count is here, the test says no.
  if (w->exposure_epoch && !w->exposure_served)
    for (int s : w->exposure) {
      int here = 0;
      PMPI_Iprobe(s, kCountTag, w->comm, &here, MPI_STATUS_IGNORE);
      if (!here) {
        *flag = 0;
        MPISIM_RECORD_OUTCOME(c, Outcome{false, {}, {}});
        return MPI_SUCCESS;
      }
    }
  // Their operations follow their counts: serving them waits only for messages under way.
  const int e = PMPI_Win_wait(win);
  *flag = e == MPI_SUCCESS ? 1 : 0;
  MPISIM_RECORD_OUTCOME(c, Outcome{*flag != 0, {}, {}});
  return e;
}
MPISIM_WEAK_ALIAS(Win_test)

} // extern "C"
