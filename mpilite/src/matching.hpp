// Message matching of one rank: MPI's rules, with the smallest (recv timestamp, source,
// sequence) winning among eligible messages, and a time bound for wildcard decisions.
#pragma once

#include "message.hpp"
#include "rank.hpp"
#include "request.hpp"

namespace mpilite {

class World;

/// A message reaches its destination (local or not): queue it there and match what can be.
void deliver(World& w, Message* m);

/// Posts a receive of `r` and matches it if it can be decided now.
void post_receive(World& w, Rank& r, Request* req);

/// Matches every posted receive of `r` that can be decided with what has arrived and r.eit.
/// Marks the rest undecided and records r.undecided_key.
void progress_matching(World& w, Rank& r);

/// Completes the sender's side of a synchronous or rendezvous send (local or remote).
void complete_reply(World& w, const Reply& reply);

/// The data of a rendezvous (or buffered) transfer arrived at `arrival`: completes the receive
/// and, for a rendezvous, the send (the data left the sender at arrival - transfer(src, dst, 0)).
void finish_data(World& w, const DataTransfer& d, SimTime arrival);

/// The network decided the arrival of the pending message `m` (still in its destination's
/// queue): it arrives at `ts`; matches what can be matched now.
void settle_message(World& w, Message& m, SimTime ts);

} // namespace mpilite
