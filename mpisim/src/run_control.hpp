// Bounds a run and shows how it goes: MPISIM_WALL_LIMIT and MPISIM_TIME_LIMIT end it, SIGINT and
// SIGTERM end it early, and so does a machine nearly out of memory (MPISIM_MEMORY_RESERVE), each
// with the report of what ran so far and the running rank named; a progress line appears on
// stderr once a run has taken a few seconds (MPISIM_PROGRESS), during the set-up of a large run
// too.
//
// A watchdog thread keeps the wall clock and turns signals into requests; the simulation thread
// acts on them at the next MPI call or idle round, where ending the run is an ordinary World::stop.
// A rank that never returns to MPI (an endless loop in its own code) cannot be stopped that way:
// after a grace period the watchdog prints a short report from what it can read and exits.
// Without a limit, it says so once such a rank has run its own code for a while
// (MPISIM_OWN_CODE_NOTE): waiting for memory another rank writes is a hang under mpisim.
// Before the ranks start (mapping stacks, building their state, spawning their fibers) the
// simulation thread makes no MPI call, so the watchdog prints the progress line itself.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "config.hpp"
#include "world.hpp"

namespace mpisim {

/// Exit code of a run ended by MPISIM_WALL_LIMIT or MPISIM_TIME_LIMIT (that of timeout(1)).
inline constexpr int kLimitExitCode = 124;

class RunControl {
public:
  /// Made before the world, so that its set-up is timed and shown; `reporting` (host 0) prints
  /// the progress line.
  RunControl(const Config& config, bool reporting);
  ~RunControl();
  RunControl(const RunControl&) = delete;
  RunControl& operator=(const RunControl&) = delete;
  /// The world this host process runs, once it is made (the RunControl must go first).
  void attach(mpilite::World& world) { world_.store(&world); }

  /// At each MPI call of `rank` (from its fiber): ends the run when a limit was reached or a
  /// signal asked for it, and prints the progress line when it is due. One load and one compare
  /// when nothing is due.
  void at_call(mpilite::Rank& rank) {
    if (due_.load(std::memory_order_relaxed) != 0 || rank.clock > time_limit_) handle(&rank);
  }
  /// When no rank of this host can run. False: the run must end (World::stop_when_idle was
  /// called).
  bool at_idle() { return due_.load(std::memory_order_relaxed) == 0 || handle(nullptr); }

private:
  // kAlive: the watchdog asks, and any MPI call or idle round answers, whether the simulation
  // thread still comes back from the ranks' own code (MPISIM_OWN_CODE_NOTE).
  enum Due { kStop = 1, kProgress = 2, kAlive = 4 };
  bool handle(mpilite::Rank* rank);
  void watch();
  [[noreturn]] void end_without_rank_returning();
  /// The note of MPISIM_OWN_CODE_NOTE, when a rank has not come back from its own code since
  /// `asked` (the watchdog's unanswered kAlive); false while no rank runs its own code.
  bool note_own_code(std::chrono::steady_clock::time_point asked);
  std::string stop_reason() const;
  std::string progress_line() const;
  /// Prints a progress line: rewritten in place on a terminal, a line of its own elsewhere.
  void show_progress(const std::string& line);
  /// The progress line while the ranks are not all spawned, or "" once they are.
  std::string setup_line() const;
  // " (rank R in CALL, ...)" for the ranks of this host process that wait inside an MPI call.
  std::string waiting_calls() const;

  const Config& config_;
  std::atomic<mpilite::World*> world_{nullptr};
  const bool reporting_;
  const bool terminal_;
  const SimTime time_limit_;
  const std::chrono::steady_clock::time_point started_;
  std::atomic<int> due_{0};
  std::atomic<bool> acknowledged_{false}; ///< the simulation thread is ending the run
  std::atomic<int> stop_signal_{0};       ///< the signal that asked for the stop (0: wall limit)
  /// Memory left on the machine when it fell below MPISIM_MEMORY_RESERVE (0: it did not).
  std::atomic<std::uint64_t> memory_left_{0};
  std::atomic<bool> progress_shown_{false}; ///< set by the watchdog during the set-up
  std::mutex mutex_;
  std::condition_variable wake_;
  bool quit_ = false;
  std::thread watchdog_;
};

} // namespace mpisim
