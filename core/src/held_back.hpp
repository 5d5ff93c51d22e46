// What a network that decides arrivals later (MPISIM_NETWORK=nic, contention) still holds once
// it can decide nothing more: the synchronization core takes it into the host's time bounds, as
// if the network were one more LP of the host.
#pragma once

#include "sim_time.hpp"

namespace mpilite {

struct HeldBack {
  /// A lower bound on every arrival at this host's ranks it still holds, and on every send of
  /// theirs it has still to say is done: what a rank's pending requests may yet see happen.
  SimTime arrivals = kTimeInfinity;
  /// The earliest time at which it may wake a rank of this host (a send whose bytes have left)
  /// or send a leg to another host process: like an LP's earliest action, what it starts then
  /// reaches another host no earlier than a lookahead later.
  SimTime acts = kTimeInfinity;
  /// It decides more once every future frame from other host processes is known to come no
  /// earlier than after this time (kTimeInfinity: it waits for nothing from them).
  SimTime waits = kTimeInfinity;
};

} // namespace mpilite
