// One-sided communication's window (MPI-3.1 chapter 11): a rank's exposed memory and the
// operations it issued in the current epoch. Operations are carried out when the epoch ends, as
// messages on the window's own communicator (docs/model.md, One-sided communication).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "datatype.hpp"
#include "mpi.h"

namespace mpilite {

enum class RmaKind : std::uint8_t { Put, Get, Accumulate, GetAccumulate, CompareSwap };

/// An operation issued and not yet carried out: the message that carries it to its target
/// (header, target layout, data, and a compare-and-swap's compare value) and, for an operation
/// that returns data, where the reply goes.
struct RmaOp {
  RmaKind kind = RmaKind::Put;
  int target = 0; ///< rank in the window's communicator
  std::vector<std::byte> message;
  void* result_addr = nullptr;
  std::shared_ptr<const Datatype> result_type;
  std::size_t bytes = 0; ///< data bytes moved
};

/// The first bytes of an operation's message.
struct RmaHeader {
  RmaKind kind;
  MPI_Aint disp;
  int target_count;
  MPI_Op op;
};

/// What every rank of a window learns of the others when it is made (as MPICH's MPI_Win_create
/// gathers it): an origin checks its operations' range itself, also for passive targets.
struct WindowTarget {
  void* base = nullptr; ///< meaningful in this host process only (MPI_Win_shared_query)
  MPI_Aint size = 0;
  int disp_unit = 1;
  int passive = 1; ///< 0: made with the info no_locks=true (MPI_Win_lock on it is erroneous)
};

/// A lock epoch this rank opened as an origin (MPI_Win_lock, or MPI_Win_lock_all for the
/// targets it reached). The lock is acquired with the first batch the target serves, except on
/// the rank's own window: there plain loads and stores belong to the epoch, so MPI_Win_lock
/// returns only once the lock is held.
struct LockEpoch {
  int type = MPI_LOCK_SHARED;
  bool acquired = false;
  bool own = false; ///< the target is the origin itself
};

class PassiveTarget;
struct BatchInFlight;

/// Replies of operations a target served (gets and atomics): their data and sends, kept until
/// the sends are done.
struct RmaReplies {
  std::vector<MPI_Request> requests;
  std::vector<std::vector<std::byte>> data;
};

struct Window {
  MPI_Win handle = MPI_WIN_NULL; ///< set by add_window
  int owner = -1;                ///< world rank whose handle this is
  MPI_Comm comm = MPI_COMM_NULL; ///< a duplicate of the communicator of the creation
  void* base = nullptr;
  MPI_Aint size = 0;
  int disp_unit = 1;
  int flavor = MPI_WIN_FLAVOR_CREATE;
  /// The memory MPI allocated for the window (MPI_Win_allocate, the first rank's block of
  /// MPI_Win_allocate_shared): freed with the window, also when the run ends before
  /// MPI_Win_free.
  std::unique_ptr<void, void (*)(void*)> owned{nullptr, std::free};
  std::string name;
  MPI_Info info = MPI_INFO_NULL; ///< the hints of its creation or of MPI_Win_set_info
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL; ///< MPI's default for windows
  std::vector<RmaOp> ops;
  bool fence_epoch = false;  ///< between fences (not ended by MPI_MODE_NOSUCCEED)
  std::vector<int> access;   ///< MPI_Win_start's group, as ranks of comm
  std::vector<int> exposure; ///< MPI_Win_post's group, as ranks of comm
  bool access_epoch = false;
  bool exposure_epoch = false;
  /// A rank that exposes its window and accesses others' serves its origins in MPI_Win_complete
  /// (they may wait there for its replies); MPI_Win_wait then waits for these replies only.
  bool exposure_served = false;
  RmaReplies exposure_replies;
  std::vector<WindowTarget> targets;           ///< by rank of comm
  MPI_Comm passive_comm = MPI_COMM_NULL;       ///< passive target traffic (passive_target.hpp)
  std::shared_ptr<PassiveTarget> passive;      ///< this rank's service as a target; null: no_locks
  std::map<int, LockEpoch> locks;              ///< by target rank
  bool lock_all = false;                       ///< MPI_Win_lock_all: every target, shared
  std::map<std::uintptr_t, MPI_Aint> attached; ///< dynamic windows: attached start -> bytes
  /// Batches of request-based operations sent and not yet waited for by a flush.
  std::vector<std::shared_ptr<BatchInFlight>> in_flight;
};

/// Whether this rank has a lock epoch open to `target` (MPI_Win_lock or MPI_Win_lock_all).
inline bool in_lock_epoch(const Window& w, int target) {
  return w.lock_all || w.locks.contains(target);
}

/// The windows of this host process, one per rank that made one.
Window* find_window(MPI_Win handle);
MPI_Win add_window(Window w);
void erase_window(MPI_Win handle);

} // namespace mpilite
