// The synchronization core's view of the LPs of its host: what it reads to compute time bounds
// and what it may do with them. The simulation implements it over mpilite's ranks; the unit
// tests over scripted LPs.
#pragma once

#include <cstdint>
#include <functional>

#include "frames.hpp"

namespace mpisim::protocols {

/// The hosts (and whether this one) that could send what an LP's undecided operations wait for:
/// the paper's potential sources.
struct Sources {
  bool local = false;
  HostSet remote = 0;
};

/// An input bound for an LP: `now` for its current decisions (it may be narrowed to the potential
/// sources of what it waits for now) and `keep` for any later one (over every source).
struct LpBound {
  SimTime now;
  SimTime keep;
};

class LocalLps {
public:
  virtual ~LocalLps() = default;

  /// LPs of this host that have not finished.
  virtual std::int64_t not_done() const = 0;
  /// Whether some LP of this host can run.
  virtual bool any_ready() const = 0;
  /// Calls `visit(id, act)` for every LP with something to decide; `act` is the earliest
  /// simulated time at which it may act without new input (match a message it holds, answer a
  /// test), so it sends nothing before act + lookahead.
  virtual void undecided(const std::function<void(std::int64_t id, SimTime act)>& visit) = 0;
  /// The potential sources of what LP `id` waits for now.
  virtual Sources sources(std::int64_t id) const = 0;
  /// Whether no LP of this host can take input from another host before one of them acts again:
  /// each waits only for LPs of this host (what comes from elsewhere meanwhile waits unmatched).
  virtual bool closed() const = 0;
  /// Raises the input bound of every LP with something to decide (of every blocked LP when
  /// `all_blocked`) to `bound(id)`, decides what became safe and wakes the LPs that may proceed.
  /// Returns whether any LP became ready.
  virtual bool raise(bool all_blocked, const std::function<LpBound(std::int64_t id)>& bound) = 0;
  /// Whether an LP's state moved since the last call without any LP becoming ready (in
  /// mpisim, a step of a collective completed on a blocked rank's behalf, which may have sent
  /// or posted receives): bounds and promises computed before are stale.
  virtual bool moved() { return false; }
  /// What an idle round of a host process alone, or a global round, found: LP `id` is the only one
  /// of the run that can act (the others wait for what only it could cause, the network holds
  /// nothing), or none (-1), when this host's activity() was `as_of`: it holds while that has not
  /// moved. An LP that polls in that state polls for what may never come.
  virtual void only_one_acts(std::int64_t id, std::uint64_t as_of) {
    (void)id;
    (void)as_of;
  }
  /// With other hosts: LP `id` is the only one of this host that can act (-1: none or several).
  /// Returns whether it polled so long that the run must say whether it is alone everywhere: the
  /// host then reports to a global round, whose decision answers through only_one_acts.
  virtual bool only_one_acts_here(std::int64_t id) {
    (void)id;
    return false;
  }
  /// A count of what this host's LPs did that may let another LP act (messages sent and received,
  /// steps of collectives): findings of only_one_acts hold while it stays.
  virtual std::uint64_t activity() const { return 0; }
  /// The smallest clock of the unfinished LPs (for the lookahead statistic).
  virtual SimTime min_clock() const = 0;
  /// Static lookahead: the earliest time any unfinished LP may act, from its clock and the post
  /// times of its receives, but not before its own input bound.
  virtual SimTime earliest_action() const = 0;
};

} // namespace mpisim::protocols
