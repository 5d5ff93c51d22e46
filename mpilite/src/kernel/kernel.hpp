// What mpilite needs from the simulation that runs it, split by concern: the costs of messages
// and files (MessageTiming), delivery to other host processes (HostDelivery), the time bounds of
// synchronization (TimeBounds), the hooks around every MPI call and message (CallHooks) and the
// rule that lets a receive match without a time bound (MatchPolicy). mpisim implements each with
// its own object; tests/unit/fake_kernel.hpp fakes them to test matching and point-to-point alone.
#pragma once

#include "call_hooks.hpp"
#include "host_delivery.hpp"
#include "match_policy.hpp"
#include "message_timing.hpp"

namespace mpilite {

/// Called when no rank of this host can run.
class TimeBounds {
public:
  virtual ~TimeBounds() = default;
  /// Advances the ranks' time bounds, takes in what other hosts sent and wakes the ranks that may
  /// proceed. Returns false when no rank can ever proceed again (deadlock).
  virtual bool idle() = 0;
  /// From the fiber of a rank about to block, with every other rank of the host stopped: the
  /// network's decisions, as the next idle() would make them first (the same state: the
  /// blocking rank does nothing before it blocks). Saves that rank two switches and the idle
  /// round when they wake a rank. Returns true when something was decided.
  virtual bool settle_before_block() { return false; }
};

/// The parts of the simulation a World runs against; each outlives the World.
struct Kernel {
  MessageTiming& timing;
  HostDelivery& delivery;
  TimeBounds& bounds;
  CallHooks& hooks;
  MatchPolicy& policy;
};

} // namespace mpilite
