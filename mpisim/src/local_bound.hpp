// Time bounds of the LPs of one host process, computed exactly from their states when none of
// them can run (DESIGN.md, "Within a host").
//
// A blocked LP r with undecided receives (or waiting for a test's answer at clock c) cannot
// produce a message before K(r) = min(max(t_post, m.ts) over its undecided candidates m, c) + L,
// and any other blocked LP only after a new message wakes it. So every future message has
// ts >= g = min(min_r K(r), R), where R bounds what other host processes may still send, and
//   EIT(r) = min( min over s != r of K(s), g + L, R ).
#pragma once

#include <functional>

#include "world.hpp"

namespace mpisim {

/// The smallest and second smallest K over a host's LPs, and the rank of the smallest.
struct LocalK {
  mpilite::SimTime g = mpilite::kTimeInfinity;
  mpilite::SimTime g2 = mpilite::kTimeInfinity;
  int arg = -1;
};

/// K over the ranks that have something undecided (drops the others from the world's list).
LocalK local_k(mpilite::World& world, mpilite::SimTime lookahead);

/// EIT of `rank` from the host's K and the bound `remote` on messages from other hosts.
mpilite::SimTime local_eit(const LocalK& k, const mpilite::Rank& rank, mpilite::SimTime lookahead,
                           mpilite::SimTime remote);

/// A rank's input bound for its current decisions (`now`: may be narrowed to the potential
/// sources of what it waits for now) and for any later one (`keep`: over every source).
struct RankBound {
  mpilite::SimTime now;
  mpilite::SimTime keep;
};

/// Raises each undecided rank's EIT (every unfinished rank's when `all`) to `bound(rank).now`,
/// matches what became safe, keeps `bound(rank).keep` as its EIT for later decisions, and wakes
/// the ranks that may proceed. Returns whether any rank became ready.
bool raise_bounds(mpilite::World& world,
                  const std::function<RankBound(const mpilite::Rank&)>& bound, bool all = false);

/// One host process alone: raise bounds from its own K. `lookahead` must be > 0; `held` is a
/// lower bound on the recv timestamp of messages the network still holds (contention).
bool advance_local_bounds(mpilite::World& world, mpilite::SimTime lookahead,
                          mpilite::SimTime held = mpilite::kTimeInfinity);

/// The earliest simulated time at which a stopped rank may act (match a message, answer a test):
/// the smallest min(undecided_key, decide_time) over the ranks with something to decide.
mpilite::SimTime earliest_decision(mpilite::World& world);

} // namespace mpisim
