// Passive target synchronization at the origin (MPI-3.1 section 11.5.3): the operations of a
// lock epoch queued for one target go to it as one batch, which the target's service
// (passive_target.hpp) serves and answers. MPI_Win_flush and MPI_Win_unlock wait for the
// answer; a request-based operation (MPI_Rput, ...) returns once its batch is sent, and its
// request completes when the answer has come, as the flush would (docs/model.md, One-sided
// communication).
#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "api_win.hpp"
#include "compound_request.hpp"
#include "datatype_wire.hpp"
#include "passive_target.hpp"
#include "rma_apply.hpp"
#include "world.hpp"

namespace mpilite {

/// A batch on its way: what was sent, the reply, and where the data it returns goes. The
/// window keeps it until a flush has waited for it; the request of its messages owns it too.
struct BatchInFlight : CompoundRequest {
  int target = 0;
  BatchHeader header;
  std::vector<RmaOp> ops;
  std::vector<std::byte> batch, reply;
  bool done = false; ///< its reply has come and its data is placed
  SimTime ready = 0; ///< when, in simulated time
  int error = MPI_SUCCESS;

  void parts_done(Request& whole, SimTime at) override {
    std::memcpy(&error, reply.data(), sizeof error);
    std::size_t offset = sizeof(int);
    for (RmaOp& q : ops) {
      if (error != MPI_SUCCESS || !rma_returns_data(q.kind)) continue;
      unpack(reply.data() + offset, q.bytes, *q.result_type, q.result_addr);
      offset += q.bytes;
    }
    whole.status = MPI_Status{};
    whole.status.MPI_SOURCE = MPI_ANY_SOURCE;
    whole.status.MPI_TAG = MPI_ANY_TAG;
    whole.status.MPI_ERROR = error;
    whole.message_bytes = 0;
    done = true;
    ready = at;
  }
};

namespace {

bool to(const std::shared_ptr<BatchInFlight>& b, int target) {
  return target < 0 || b->target == target;
}

} // namespace

Request* start_batch(ApiCall& c, Window& w, int target, bool unlock) {
  // The service serves a batch that asks for no lock as it comes: none may overtake the batch
  // whose lock the target has not granted yet.
  if (std::any_of(w.in_flight.begin(), w.in_flight.end(),
                  [&](const auto& b) { return b->target == target && b->header.lock != 0; }))
    complete_batches(c, w, target);
  LockEpoch& epoch = w.locks[target];
  auto b = std::make_shared<BatchInFlight>();
  b->target = target;
  auto mine = std::stable_partition(w.ops.begin(), w.ops.end(),
                                    [&](const RmaOp& q) { return q.target != target; });
  std::move(mine, w.ops.end(), std::back_inserter(b->ops));
  w.ops.erase(mine, w.ops.end());
  // On another rank's window a lock is only observable through operations: a batch that would
  // do nothing is not sent. On the rank's own window loads and stores observe it.
  if (b->ops.empty() && !(unlock && epoch.acquired) && !(epoch.own && !epoch.acquired))
    return nullptr;
  b->header.lock = epoch.acquired ? 0 : epoch.type;
  b->header.unlock = unlock ? 1 : 0;
  std::size_t reply_bytes = sizeof(int);
  for (const RmaOp& q : b->ops) {
    append_bytes(b->batch, static_cast<std::uint64_t>(q.message.size()));
    b->batch.insert(b->batch.end(), q.message.begin(), q.message.end());
    if (rma_returns_data(q.kind)) reply_bytes += q.bytes;
  }
  b->header.batch_bytes = b->batch.size();
  b->reply.resize(reply_bytes);
  MPI_Request h[3];
  PMPI_Isend(&b->header, sizeof b->header, MPI_BYTE, target, kBatchHeaderTag, w.passive_comm,
             &h[0]);
  PMPI_Isend(b->batch.data(), static_cast<int>(b->batch.size()), MPI_BYTE, target, kBatchTag,
             w.passive_comm, &h[1]);
  PMPI_Irecv(b->reply.data(), static_cast<int>(b->reply.size()), MPI_BYTE, target, kBatchReplyTag,
             w.passive_comm, &h[2]);
  epoch.acquired = !unlock;
  // Batches served by the rank's clock need no more waiting for.
  std::erase_if(w.in_flight, [&](const auto& x) { return x->done && x->ready <= c.r.clock; });
  w.in_flight.push_back(b);
  return start_compound(c.w, c.r, std::move(b),
                        {c.w.request(h[0]), c.w.request(h[1]), c.w.request(h[2])});
}

void complete_batches(ApiCall& c, Window& w, int target) {
  for (const auto& b : w.in_flight)
    if (to(b, target)) {
      while (!b->done)
        c.w.scheduler().block();
      c.r.wait_until(b->ready);
    }
  std::erase_if(w.in_flight, [&](const auto& b) { return to(b, target); });
}

int flush_target(ApiCall& c, Window& w, int target, bool unlock) {
  Request* q = start_batch(c, w, target, unlock);
  if (q) wait_all(c.w, c.r, &q, 1); // charged as MPI_Wait on a request-based operation
  const int error = q ? q->status.MPI_ERROR : MPI_SUCCESS;
  if (q) c.w.free_request(q);
  complete_batches(c, w, target); // those of request-based operations
  if (error != MPI_SUCCESS)
    return win_error(c, w, error, "rank {} could not carry out an operation of this epoch{}",
                     target,
                     error == MPI_ERR_RMA_RANGE && w.flavor == MPI_WIN_FLAVOR_DYNAMIC
                         ? ": it reaches outside the memory that rank attached to the window"
                         : "");
  return MPI_SUCCESS;
}

} // namespace mpilite
