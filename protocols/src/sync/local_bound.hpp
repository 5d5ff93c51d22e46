// Time bounds of the LPs of one host, computed exactly from their states when none of them can
// run (DESIGN.md, "Within a host").
//
// A blocked LP r with undecided receives (or waiting for a test's answer at clock c) cannot
// produce a message before K(r) = act(r) + L, and any other blocked LP only after a new message
// wakes it. So every future message has ts >= g = min(min_r K(r), R), where R bounds what other
// hosts (and the network model) may still deliver, and
//   EIT(r) = min( min over s != r of K(s), g + L, R ).
#pragma once

#include "local_lps.hpp"

namespace mpisim::protocols {

inline SimTime plus(SimTime t, SimTime d) {
  return t >= kTimeInfinity ? kTimeInfinity : t + d;
}

/// The earliest action act = K - L behind a K (infinite stays infinite).
inline SimTime action_of(SimTime k, SimTime lookahead) {
  return k >= kTimeInfinity ? kTimeInfinity : k - lookahead;
}

/// The smallest and second smallest K over a host's LPs, and the LP of the smallest.
struct LocalK {
  SimTime g = kTimeInfinity;
  SimTime g2 = kTimeInfinity;
  std::int64_t arg = -1;

  /// Takes one more LP's K into account.
  void add(std::int64_t id, SimTime k) {
    if (k < g) {
      g2 = g;
      g = k;
      arg = id;
    } else if (k < g2) {
      g2 = k;
    }
  }
  bool operator==(const LocalK&) const = default;
};

/// K over the LPs that have something to decide.
LocalK local_k(LocalLps& lps, SimTime lookahead);

/// EIT of LP `id` from the K of its host (or of all hosts: a coordinator's decision has the same
/// form) and the bound `remote` on messages from elsewhere.
SimTime local_eit(const LocalK& k, std::int64_t id, SimTime lookahead, SimTime remote);

} // namespace mpisim::protocols
