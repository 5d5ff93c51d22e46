// What the simulation does around every MPI call of a rank and every message: compute charging,
// limits, traces and recordings.
#pragma once

#include "sim_time.hpp"

namespace mpilite {

struct Rank;
struct Message;

class CallHooks {
public:
  virtual ~CallHooks() = default;
  /// Entry and exit of an MPI call of `rank`: compute time in between is charged to its clock.
  virtual void enter_mpi(Rank& rank) = 0;
  virtual void leave_mpi(Rank& rank) = 0;
  /// `m` was sent; its sender started it at `start` (before its overhead).
  virtual void sent(const Message& /*m*/, SimTime /*start*/) {}
  /// A receive of world rank `dst` matched `m` at simulated time `t_match`.
  virtual void received(const Message& /*m*/, int /*dst*/, SimTime /*t_match*/) {}
};

} // namespace mpilite
