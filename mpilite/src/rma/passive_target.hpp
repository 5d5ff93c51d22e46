// Passive target synchronization at the target (MPI-3.1 11.5.3): the service that grants a
// window's locks and carries out the operations of lock epochs. The target rank takes no part:
// a batch of operations is served when it arrives in simulated time, whatever the rank is doing,
// as an RDMA network or MPICH's asynchronous progress serves it (docs/model.md, One-sided
// communication). Batches are served one at a time, in the order of their arrival in simulated
// time (ties: lower origin rank first), so results do not depend on the number of host processes.
#pragma once

#include <cstdint>
#include <memory>

namespace mpilite {

class World;
struct Rank;
struct Window;

/// What an origin sends ahead of a batch (then the batch itself, tag kBatchTag, on the window's
/// passive communicator). The batch holds the operations for this target, each as its size
/// (std::uint64_t) followed by its message (window.hpp, RmaHeader). The reply (kBatchReplyTag)
/// is an int error code followed by the data of the operations that return some, in order.
struct BatchHeader {
  int lock = 0;   ///< MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE to acquire first; 0: already held
  int unlock = 0; ///< release the lock once the batch is served
  std::uint64_t batch_bytes = 0;
};
inline constexpr int kBatchHeaderTag = 1;
inline constexpr int kBatchTag = 2;
inline constexpr int kBatchReplyTag = 3;

class PassiveTarget;

/// Starts serving window `win` of rank `r` on `win.passive_comm`.
std::shared_ptr<PassiveTarget> serve_passive_target(World& w, Rank& r, Window& win);

/// Stops the service (MPI_Win_free, once no origin has an epoch open): withdraws its receive
/// and waits until its last replies are sent. From the fiber of the target rank.
void stop_passive_target(PassiveTarget& p);

} // namespace mpilite
