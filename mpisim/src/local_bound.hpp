// The time bound over the LPs of one host process, computed exactly from their states when
// none of them can run (DESIGN.md, "Within a host").
#pragma once

#include "world.hpp"

namespace mpisim {

/// Lower bound on the recv timestamp of any message a blocked LP may still produce, given that
/// every message it could be woken by arrives no earlier than the current bound:
///   K(r) = min(undecided_key(r), decide_time(r)) + lookahead.
/// Then every future message has ts >= g = min_r K(r), and for rank r
///   EIT(r) = min over s != r of K(s), and g + lookahead (a message caused by a future one).
/// Sets r.eit for every undecided rank, matches what became safe and wakes the ranks that may
/// proceed. Returns whether any rank became ready. `lookahead` must be > 0. `input_bound` is a
/// lower bound on the recv timestamp of messages the network still holds (contention); every
/// EIT stays at or below it.
bool advance_local_bounds(mpilite::World& world, mpilite::SimTime lookahead,
                          mpilite::SimTime input_bound = mpilite::kTimeInfinity);

/// The earliest simulated time at which a stopped rank may act (match a message, answer a test):
/// the smallest min(undecided_key, decide_time) over the ranks with something to decide.
mpilite::SimTime earliest_decision(mpilite::World& world);

} // namespace mpisim
