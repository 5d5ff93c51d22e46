// What the simulation does around every MPI call of a rank and every message: compute charging,
// limits, traces and recordings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim_time.hpp"

namespace mpilite {

struct Rank;
struct Message;

/// A phase of a parallel region (between two barriers of the team) in which the master thread
/// made MPI calls: the calls hold the master up as long as they took in simulated time.
struct PhaseCalls {
  std::size_t phase = 0;
  std::int64_t most_ns = 0;   ///< the busiest thread's work in the phase (host CPU time)
  std::int64_t master_ns = 0; ///< the master's, its MPI calls left out
  SimTime calls = 0;          ///< the simulated time the master's calls in the phase took
};

/// What the threads of one OpenMP parallel region of a rank did, in host CPU time spent on the
/// region's work (their waits at barriers and locks left out).
struct RegionWork {
  int threads = 0; ///< the team's size
  /// The region's critical path: for each phase between two barriers of the team, the busiest
  /// thread's work in it, summed.
  std::int64_t most_ns = 0;
  std::int64_t total_ns = 0;     ///< all threads' work together
  std::vector<PhaseCalls> calls; ///< the phases with MPI calls of the master, in order
};

class CallHooks {
public:
  virtual ~CallHooks() = default;
  /// Entry and exit of an MPI call of `rank`: compute time in between is charged to its clock.
  virtual void enter_mpi(Rank& rank) = 0;
  virtual void leave_mpi(Rank& rank) = 0;
  /// A parallel region of `rank` begins: the compute before it is charged as before an MPI
  /// call. It ends having done `work`, which is charged as the target runs the team.
  virtual void region_begins(Rank& /*rank*/) {}
  virtual void region_ends(Rank& /*rank*/, const RegionWork& /*work*/) {}
  /// The master thread of `rank`'s region under way is about to make an MPI call, the region
  /// having done `so_far` (its phases before the master's current one, and the master's own
  /// work and calls in that one): the call is to begin at the region's time at that point.
  virtual void region_call(Rank& /*rank*/, const RegionWork& /*so_far*/) {}
  /// `m` was sent; its sender started it at `start` (before its overhead).
  virtual void sent(const Message& /*m*/, SimTime /*start*/) {}
  /// A receive of world rank `dst` matched `m` at simulated time `t_match`.
  virtual void received(const Message& /*m*/, int /*dst*/, SimTime /*t_match*/) {}
};

} // namespace mpilite
