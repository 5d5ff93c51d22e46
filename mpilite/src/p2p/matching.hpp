// Message matching of one rank: MPI's rules, with the smallest (recv timestamp, source,
// sequence) winning among eligible messages, and a time bound for wildcard decisions.
#pragma once

#include <span>
#include <vector>

#include "comm.hpp"
#include "match_queues.hpp"
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

/// Takes receive `q` of `r`, posted and not matched, out of matching (MPI_Cancel).
void withdraw_receive(World& w, Rank& r, Request& q);

/// Completes the sender's side of a synchronous or rendezvous send (local or remote).
void complete_reply(World& w, const Reply& reply);

/// Completes receive `q` of `r` with message `m`, which is no longer in r.unexpected (the
/// caller took it out: matching, or MPI_Mrecv of a message set aside by MPI_Mprobe).
void receive_message(World& w, Rank& r, Request& q, Message& m);

/// The status a probe gives for `m`: its source (as a rank of `comm`), tag and size.
void describe_message(MPI_Status& s, const Comm& comm, const Message& m);

/// Whether any of `receives` matches the envelope of `m`.
bool could_take(std::span<const Request* const> receives, const Message& m);

/// What a candidate search leaves out: messages in `taken` (set aside for other receives) and,
/// with `hidden_by`, every source whose first matching message one of those receives could match.
struct CandidateFilter {
  const std::vector<const Message*>* taken = nullptr;
  const std::vector<const Request*>* hidden_by = nullptr;
};

/// The message `q` would take now from r.unexpected: for a named source the first matching one
/// it sent (non-overtaking); for MPI_ANY_SOURCE the earliest (recv timestamp, source, sequence)
/// among each source's first matching one.
Message* candidate(const Rank& r, const Request& q, const CandidateFilter& filter = {});
/// Plans the data of a matched rendezvous (or buffered) send: the network decides its arrival
/// now or later (finish_data).
void plan_data(World& w, const DataTransfer& d);

/// Hands `m`, for a rank of another host, to the transport.
void send_to_host(World& w, Message* m);

/// The data of a rendezvous (or buffered) transfer arrived at `arrival`: completes the receive
/// and, for a rendezvous, the send at `sent` (its last byte left then); a receive on another host
/// completes there.
void finish_data(World& w, const DataTransfer& d, SimTime arrival, SimTime sent);

/// The network decided the arrival of the pending message `m` (still in its destination's
/// queue): it arrives at `ts`; matches what can be matched now.
void settle_message(World& w, Message& m, SimTime ts);

} // namespace mpilite
