// MPI entry points: partitioned point-to-point communication (MPI-4.0 chapter 4). The model
// (docs/model.md, Partitioned communication): a partitioned send is one message of the whole
// buffer, sent when its last partition is marked ready (as MPICH 4.0's default path does); the
// receive is posted at MPI_Start and a partition has arrived once that message has. Partitioned
// messages travel in a context of their own, so they match only partitioned receives, and carry
// their partition count, which the receive checks.
#include <climits>
#include <type_traits>
#include <vector>

#include "api_object_checks.hpp"
#include "api_p2p.hpp"
#include "completion.hpp"

using namespace mpilite;

namespace {

/// What both sides bind at their init call: the whole buffer as one message of
/// partitions * count elements.
struct PartitionedArgs {
  P2pArgs whole;
  int partitions = 0;

  /// The world rank of the peer, or MPI_PROC_NULL (a receive never takes MPI_ANY_SOURCE).
  int peer_world(const ApiCall& c) const {
    return whole.peer == MPI_PROC_NULL ? MPI_PROC_NULL : whole.comm->peer_world(whole.peer, c.r.id);
  }
};

class PartitionedSend final : public PersistentOp {
public:
  PartitionedArgs args;

  /// Until its last partition is ready the operation is a request that nothing completes (a
  /// wait for it would wait forever: mpisim reports that as a deadlock).
  int start(ApiCall& c, Request& self) override {
    ready_.assign(static_cast<std::size_t>(args.partitions), false);
    missing_ = args.partitions;
    self.started = c.w.new_request(c.r, RequestKind::Send);
    return MPI_SUCCESS;
  }

  /// MPI_Pready of `partition`, checked by the caller; the last one sends the message.
  int ready(ApiCall& c, Request& self, int partition) {
    if (ready_[static_cast<std::size_t>(partition)])
      return c.error(args.whole.comm->handle, MPI_ERR_ARG,
                     "partition {} of request {:#x} is already marked ready", partition,
                     static_cast<unsigned>(self.handle));
    ready_[static_cast<std::size_t>(partition)] = true;
    if (--missing_ > 0) return MPI_SUCCESS;
    c.w.free_request(self.started);
    const int dest = args.peer_world(c);
    self.started = dest == MPI_PROC_NULL
                       ? completed_request(c.w, c.r, RequestKind::Send)
                       : start_send(c.w, c.r, SendMode::Standard, args.whole.buf, args.whole.count,
                                    *args.whole.type, dest, args.whole.tag,
                                    args.whole.comm->partitioned_context(), args.partitions);
    return MPI_SUCCESS;
  }

private:
  std::vector<bool> ready_;
  int missing_ = 0;
};

class PartitionedRecv final : public PersistentOp {
public:
  PartitionedArgs args;

  int start(ApiCall& c, Request& self) override {
    const int source = args.peer_world(c);
    const P2pArgs& a = args.whole;
    self.started = source == MPI_PROC_NULL
                       ? completed_request(c.w, c.r, RequestKind::Recv)
                       : start_receive(c.w, c.r, a.buf, a.count, *a.type, source, a.tag,
                                       a.comm->partitioned_context(), *a.comm, args.partitions);
    return MPI_SUCCESS;
  }
};

/// The checks of both init calls: `partitions` of `count` elements each, as one message.
int check_partitioned(ApiCall& c, bool send, const void* buf, int partitions, MPI_Count count,
                      MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Info info,
                      PartitionedArgs& out) {
  if (partitions < 1)
    return c.error(comm, MPI_ERR_ARG, "invalid number of partitions {} (must be >= 1)", partitions);
  if (count < 0)
    return c.error(comm, MPI_ERR_COUNT, "invalid count {} per partition (must be >= 0)", count);
  if (count * partitions > INT_MAX)
    return c.error(comm, MPI_ERR_COUNT,
                   "{} partitions of {} elements are above 2^31 - 1 elements, which mpisim does "
                   "not support",
                   partitions, count);
  const int total = static_cast<int>(count * partitions);
  if (int e = send ? check_send(c, buf, total, datatype, peer, tag, comm, out.whole)
                   : check_receive(c, const_cast<void*>(buf), total, datatype, peer, tag, comm,
                                   out.whole))
    return e;
  if (!send && peer == MPI_ANY_SOURCE)
    return c.error(comm, MPI_ERR_RANK, "MPI_ANY_SOURCE is not allowed in MPI_Precv_init");
  if (!send && tag == MPI_ANY_TAG)
    return c.error(comm, MPI_ERR_TAG, "MPI_ANY_TAG is not allowed in MPI_Precv_init");
  if (out.whole.comm->inter()) return c.refuse_intercomm(*out.whole.comm);
  InfoEntries* hints; // none that mpisim acts on
  if (int e = check_info(c, info, hints, true, comm)) return e;
  out.partitions = partitions;
  return MPI_SUCCESS;
}

/// MPI_Psend_init (T = PartitionedSend) and MPI_Precv_init: checks, then makes the persistent
/// request, which keeps its datatype alive.
template <class T>
int init_partitioned(const char* name, const void* buf, int partitions, MPI_Count count,
                     MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
  constexpr bool send = std::is_same_v<T, PartitionedSend>;
  ApiCall c(name);
  auto op = std::make_shared<T>();
  if (int e = check_partitioned(c, send, buf, partitions, count, datatype, peer, tag, comm, info,
                                op->args))
    return e;
  const Datatype* type = op->args.whole.type;
  // A partition's bytes: replay sends whole partitions of bytes.
  const std::size_t bytes = static_cast<std::size_t>(count) * type->size;
  if (int e = make_persistent(c, std::move(op), send ? RequestKind::Send : RequestKind::Recv, comm,
                              request))
    return e;
  retain(*type);
  c.w.request(*request)->type = type;
  MPISIM_RECORD_OP(c, send ? "psend_init" : "precv_init", partitions, bytes, peer, tag,
                   CommArg{comm}, NewRequestArg{*request});
  return MPI_SUCCESS;
}

/// The partitioned operation of request `h` of kind T, or an MPI_ERR_REQUEST error; `active`:
/// it must have been started.
template <class T> int lookup(ApiCall& c, MPI_Request h, Request*& q, T*& op) {
  q = c.w.request(h);
  op = q && q->owner == &c.r ? dynamic_cast<T*>(q->persistent.get()) : nullptr;
  if (!op)
    return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request {:#x} is not a partitioned {} request",
                   static_cast<unsigned>(h),
                   std::is_same_v<T, PartitionedSend> ? "send (MPI_Psend_init)"
                                                      : "receive (MPI_Precv_init)");
  if (!q->started)
    return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                   "partitioned request {:#x} is not active (start it with MPI_Start first)",
                   static_cast<unsigned>(h));
  return MPI_SUCCESS;
}

int check_partition(ApiCall& c, const PartitionedArgs& args, int partition) {
  if (partition >= 0 && partition < args.partitions) return MPI_SUCCESS;
  return c.error(args.whole.comm->handle, MPI_ERR_ARG,
                 "partition {} is out of range (the request has {} partitions: 0 to {})", partition,
                 args.partitions, args.partitions - 1);
}

/// MPI_Pready_range and MPI_Pready_list: `partition(i)` for i < n, each checked first.
template <class F> int ready_all(const char* name, MPI_Request request, int n, F partition) {
  ApiCall c(name);
  Request* q;
  PartitionedSend* op;
  if (int e = lookup(c, request, q, op)) return e;
  for (int i = 0; i < n; ++i)
    if (int e = check_partition(c, op->args, partition(i))) return e;
  if (c.w.op_log) {
    // Each form is recorded as the list it marks: they cost the same.
    std::vector<int> marked(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      marked[static_cast<std::size_t>(i)] = partition(i);
    c.w.op_log->record(c, "pready", RequestArg{request}, IntsArg{n, marked.data()});
  }
  for (int i = 0; i < n; ++i)
    if (int e = op->ready(c, *q, partition(i))) return e;
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_partitioned<PartitionedSend>("MPI_Psend_init", buf, partitions, count, datatype, dest,
                                           tag, comm, info, request);
}
MPISIM_WEAK_ALIAS(Psend_init)

int PMPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                    int tag, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_partitioned<PartitionedRecv>("MPI_Precv_init", buf, partitions, count, datatype,
                                           source, tag, comm, info, request);
}
MPISIM_WEAK_ALIAS(Precv_init)

int PMPI_Pready(int partition, MPI_Request request) {
  return ready_all("MPI_Pready", request, 1, [=](int) { return partition; });
}
MPISIM_WEAK_ALIAS(Pready)

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  if (partition_low > partition_high) {
    ApiCall c("MPI_Pready_range");
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "partition_low {} is above partition_high {}",
                   partition_low, partition_high);
  }
  return ready_all("MPI_Pready_range", request, partition_high - partition_low + 1,
                   [=](int i) { return partition_low + i; });
}
MPISIM_WEAK_ALIAS(Pready_range)

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {
  if (length < 0 || (length > 0 && !array_of_partitions)) {
    ApiCall c("MPI_Pready_list");
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid list of {} partitions", length);
  }
  return ready_all("MPI_Pready_list", request, length,
                   [=](int i) { return array_of_partitions[i]; });
}
MPISIM_WEAK_ALIAS(Pready_list)

int PMPI_Parrived(MPI_Request request, int partition, int* flag) {
  ApiCall c("MPI_Parrived");
  Request* q;
  PartitionedRecv* op;
  if (!flag) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null flag pointer");
  if (int e = lookup(c, request, q, op)) return e;
  if (int e = check_partition(c, op->args, partition)) return e;
  MPISIM_RECORD_OP(c, "parrived", RequestArg{request}, partition);
  // The whole message is one: every partition arrives with it. Asking polls as MPI_Test does.
  *flag = completed_by_clock(c.w, c.r, *q->started);
  MPISIM_RECORD_OUTCOME(c, Outcome{*flag != 0, {}, {}});
  return *flag ? receive_error(c, *q->started) : MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Parrived)

} // extern "C"
