// MPI entry points: passive target synchronization (MPI-3.1 section 11.5.3, 11.5.4). An origin
// keeps the operations of a lock epoch until MPI_Win_flush* or MPI_Win_unlock*, then sends them
// to the target as one batch and waits for its reply (api_win_batch.cpp); the target's service
// (passive_target.hpp) acquires the lock with the first batch and releases it with the last
// (docs/model.md, One-sided communication).
#include "api_win.hpp"
#include "p2p.hpp"

using namespace mpilite;

namespace {

/// Checks of the calls that name a target: the window, the rank, and an epoch open to it.
int check_target(ApiCall& c, MPI_Win win, int rank, Window*& w, bool epoch_needed) {
  if (int e = check_window(c, win, w)) return e;
  if (int e = c.check_rank(*c.w.comm(w->comm), rank, false, "target")) return e;
  if (epoch_needed && !in_lock_epoch(*w, rank))
    return win_error(c, *w, MPI_ERR_RMA_SYNC, "no lock epoch to rank {} is open (MPI_Win_lock)",
                     rank);
  return MPI_SUCCESS;
}

/// Checks that a lock epoch may begin on `w`: no other kind of epoch has operations pending.
int check_no_other_epoch(ApiCall& c, const Window& w) {
  if (w.access_epoch || w.exposure_epoch || (w.fence_epoch && !w.ops.empty() && w.locks.empty()))
    return win_error(c, w, MPI_ERR_RMA_SYNC,
                     "{} inside a fence or post/start epoch: end it first (MPI_Win_fence with "
                     "MPI_MODE_NOSUCCEED, MPI_Win_complete, MPI_Win_wait)",
                     c.name);
  return MPI_SUCCESS;
}

/// Flushes every target this rank has a lock epoch to (unlock: and ends the epochs).
int flush_all_targets(ApiCall& c, Window& w, bool unlock) {
  for (auto& [target, epoch] : w.locks)
    if (int e = flush_target(c, w, target, unlock)) return e;
  if (unlock) w.locks.clear();
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  ApiCall c("MPI_Win_lock");
  Window* w;
  if (int e = check_target(c, win, rank, w, false)) return e;
  if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
    return win_error(c, *w, MPI_ERR_LOCKTYPE,
                     "lock type {} is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", lock_type);
  if (int e = check_no_other_epoch(c, *w)) return e;
  if (in_lock_epoch(*w, rank))
    return win_error(c, *w, MPI_ERR_RMA_SYNC, "rank {} is already locked by this rank", rank);
  MPISIM_RECORD_OP(c, "win_lock", lock_type, rank, assert, WinArg{win});
  if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (!w->targets[static_cast<std::size_t>(rank)].passive)
    return win_error(c, *w, MPI_ERR_RMA_SYNC,
                     "rank {} made the window with the info no_locks=true: it cannot be locked",
                     rank);
  const bool own = c.w.comm(w->comm)->rank_of(c.r.id) == rank;
  w->locks[rank] = LockEpoch{lock_type, false, own};
  if (!own) return MPI_SUCCESS;
  const int e = flush_target(c, *w, rank, false);
  if (e != MPI_SUCCESS) w->locks.erase(rank);
  return e;
}
MPISIM_WEAK_ALIAS(Win_lock)

int PMPI_Win_unlock(int rank, MPI_Win win) {
  ApiCall c("MPI_Win_unlock");
  Window* w;
  if (int e = check_target(c, win, rank, w, rank != MPI_PROC_NULL)) return e;
  MPISIM_RECORD_OP(c, "win_unlock", rank, WinArg{win});
  if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (w->lock_all)
    return win_error(c, *w, MPI_ERR_RMA_SYNC,
                     "the epoch was opened by MPI_Win_lock_all: end it with MPI_Win_unlock_all");
  const int e = flush_target(c, *w, rank, true);
  w->locks.erase(rank);
  return e;
}
MPISIM_WEAK_ALIAS(Win_unlock)

int PMPI_Win_lock_all(int assert, MPI_Win win) {
  ApiCall c("MPI_Win_lock_all");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (int e = check_no_other_epoch(c, *w)) return e;
  if (w->lock_all || !w->locks.empty())
    return win_error(c, *w, MPI_ERR_RMA_SYNC, "a lock epoch is already open on this window");
  for (const WindowTarget& t : w->targets)
    if (!t.passive)
      return win_error(c, *w, MPI_ERR_RMA_SYNC,
                       "a rank made the window with the info no_locks=true: it cannot be locked");
  MPISIM_RECORD_OP(c, "win_lock_all", assert, WinArg{win});
  w->lock_all = true;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_lock_all)

int PMPI_Win_unlock_all(MPI_Win win) {
  ApiCall c("MPI_Win_unlock_all");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!w->lock_all) return win_error(c, *w, MPI_ERR_RMA_SYNC, "no MPI_Win_lock_all epoch is open");
  MPISIM_RECORD_OP(c, "win_unlock_all", WinArg{win});
  const int e = flush_all_targets(c, *w, true);
  w->lock_all = false;
  return e;
}
MPISIM_WEAK_ALIAS(Win_unlock_all)

// MPI_Win_flush_local completes operations at the origin only; completing them at the target
// as well is what MPI_Win_flush does, which the standard allows for it too.
#define MPISIM_FLUSH_ONE(NAME, RECORDED)                                                           \
  int PMPI_##NAME(int rank, MPI_Win win) {                                                         \
    ApiCall c("MPI_" #NAME);                                                                       \
    Window* w;                                                                                     \
    if (int e = check_target(c, win, rank, w, rank != MPI_PROC_NULL)) return e;                    \
    MPISIM_RECORD_OP(c, RECORDED, rank, WinArg{win});                                              \
    if (rank == MPI_PROC_NULL || !w->locks.contains(rank)) return MPI_SUCCESS;                     \
    return flush_target(c, *w, rank, false);                                                       \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(NAME)
#define MPISIM_FLUSH_ALL(NAME, RECORDED)                                                           \
  int PMPI_##NAME(MPI_Win win) {                                                                   \
    ApiCall c("MPI_" #NAME);                                                                       \
    Window* w;                                                                                     \
    if (int e = check_window(c, win, w)) return e;                                                 \
    if (!w->lock_all && w->locks.empty())                                                          \
      return win_error(c, *w, MPI_ERR_RMA_SYNC, "no lock epoch is open (MPI_Win_lock)");           \
    MPISIM_RECORD_OP(c, RECORDED, WinArg{win});                                                    \
    return flush_all_targets(c, *w, false);                                                        \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(NAME)

MPISIM_FLUSH_ONE(Win_flush, "win_flush")
MPISIM_FLUSH_ONE(Win_flush_local, "win_flush_local")
MPISIM_FLUSH_ALL(Win_flush_all, "win_flush_all")
MPISIM_FLUSH_ALL(Win_flush_local_all, "win_flush_local_all")

int PMPI_Win_sync(MPI_Win win) {
  ApiCall c("MPI_Win_sync");
  Window* w;
  // The window's public and private copies are one memory here (docs/model.md): nothing to
  // copy. But codes spin on a flag in the window with it, waiting for another rank's put, so
  // it is a poll: the target's service must get to serve that put while the rank spins.
  if (int e = check_window(c, win, w)) return e;
  // Other ranks' stores into a shared-memory window reach it with no message: what a loop of
  // MPI_Win_sync found there, and when, a record cannot hold.
  if (c.w.op_log && w->flavor == MPI_WIN_FLAVOR_SHARED)
    c.w.stop(RunEnd::FatalError, 1,
             OpLog::refusal(c.r.id, "MPI_Win_sync on a shared-memory window "
                                    "(MPI_Win_allocate_shared: what the rank finds there "
                                    "depends on when other ranks store, which a record cannot "
                                    "follow)"));
  MPISIM_RECORD_OP(c, "win_sync", WinArg{win});
  if (w->passive) poll_progress(c.w, c.r);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_sync)

} // extern "C"
