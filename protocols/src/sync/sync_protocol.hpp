// A conservative synchronization protocol between host processes (DESIGN.md, "The protocols"):
// how a host learns a lower bound on the recv timestamps of what other hosts may still send it.
// One class per protocol (quantum, NMP, CEP), NMP+CEP by composition, each in its own file and
// registered there by name (protocol_registry.hpp); chosen once at setup. The core around them
// (synchronizer.hpp) owns the LPs' bounds, the global rounds of quiescent snapshots (which also
// detect the end of a run and deadlocks) and the transport.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string_view>

#include "frames.hpp"
#include "host_lookaheads.hpp"
#include "local_lps.hpp"
#include "protocol_registry.hpp"
#include "sync_stats.hpp"
#include "transport.hpp"

namespace mpisim::protocols {

/// What a protocol sees of its host when none of its LPs can run.
struct IdleState {
  Summary summary;
  /// The hosts whose bounds the host's undecided LPs need (their potential sources).
  HostSet wanted = 0;
  /// A lower bound on the recv timestamp of any message this host may still send to `host`.
  std::function<SimTime(int host)> eot_to;
  /// Whether those bounds are held down by what other hosts may still send this one (rather than
  /// by its own LPs' earliest action): then they grow only as the peers' promises do.
  bool held_by_peers = false;
  /// The earliest action of the host's undecided LPs: what a bound must pass to let one proceed.
  SimTime need = kTimeInfinity;
  /// The smallest clock of the host's unfinished LPs (the lookahead statistic).
  std::function<SimTime()> min_clock;
};

/// A remote bound from per-peer ones: the least `from(h)` over the hosts h of `hosts` other than
/// `self` (of `count`), and never below `floor`, a bound that holds for every host.
template <class PerPeer>
SimTime least_of_peers(HostSet hosts, int self, int count, SimTime floor, PerPeer from) {
  SimTime b = kTimeInfinity;
  for (int h = 0; h < count; ++h)
    if (h != self && contains(hosts, h)) b = std::min(b, from(h));
  return std::max(b, floor);
}

/// What the core knows of one undecided LP of a host with peers, for its input bound.
struct LpInputs {
  /// The exact bound within the host, with the protocol's bound over every other host.
  SimTime exact;
  /// When every LP of the host waits only for LPs of the host (LocalLps::closed): the exact
  /// bound within the host without other hosts (kTimeInfinity held back by the network model
  /// aside). Otherwise -1.
  SimTime alone;
  /// The potential sources of what the LP waits for now (read only when not `alone`).
  Sources from;
  /// A lower bound on arrivals the network model still holds back.
  SimTime held;
};

/// What every protocol is given.
struct ProtocolContext {
  Transport& transport;
  SyncStats& stats;
  SimTime quantum; ///< the quantum protocol's window
  const HostLookaheads& lookaheads;
};

class SyncProtocol {
public:
  virtual ~SyncProtocol() = default;

  /// Every future data frame from the hosts in `hosts` has a recv timestamp >= this.
  virtual SimTime remote_bound(HostSet hosts) const = 0;
  /// The input bound of an LP (LpInputs): by default the exact bound within the host where
  /// the LP may take from this host, the remote bound of the hosts it may take from, and what
  /// the network model holds back.
  virtual LpBound lp_bound(const LpInputs& in) const {
    if (in.alone >= 0) return {in.alone, in.exact};
    const SimTime local = in.from.local ? in.exact : kTimeInfinity;
    return {std::min({local, remote_bound(in.from.remote), in.held}), in.exact};
  }
  /// What the coordinator decides from a complete quiescent snapshot in which LPs are
  /// unfinished and some can act: `d` comes as the snapshot's global bound (Decision::Kind::Bound:
  /// g, g2, arg, every host's smallest K), which this may replace.
  virtual void decide(Decision& /*d*/) {}

  /// A null message from `from`.
  virtual void on_null(int /*from*/, const NullFrame&) {}
  /// The host is idle: sends what the protocol sends now and returns whether it wants a global
  /// round (a report of this host's snapshot to the coordinator).
  virtual bool on_idle(const IdleState& s) = 0;
  /// A decision of a global round, as every host applies it.
  virtual void on_decision(const Decision&) {}
  /// The coordinator learnt from a report that `host` has no unfinished LP: it will never send
  /// again and needs no bound.
  virtual void on_finished(int /*host*/) {}
  /// The lower bound on this host's future frames that `host` holds, from a null message or a
  /// global round (-1: none). Every frame sent to `host` is checked against it.
  virtual SimTime promised(int /*host*/) const { return -1; }
};

} // namespace mpisim::protocols
