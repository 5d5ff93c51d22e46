// MPI_Cancel of a pending operation, decided in simulated time (docs/model.md, "Cancel").
#pragma once

#include "rank.hpp"
#include "request.hpp"

namespace mpilite {

class World;

/// Cancels operation `q` of rank `r` if it has not been matched: a receive for which no
/// message is there once every message arriving by the rank's clock is known (this may block
/// in host time), or a synchronous or rendezvous send whose message its destination has not
/// matched yet (withdrawn from the destination's queue). A cancelled operation completes at the
/// rank's clock with the cancelled flag in its status; otherwise nothing changes. Returns false,
/// changing nothing, for a pending send to a rank of another host process: withdrawing its
/// message there is not supported, and leaving it would make the outcome depend on the host count.
bool cancel(World& w, Rank& r, Request& q);

} // namespace mpilite
