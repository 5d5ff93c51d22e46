// What the simulation kernel may read and do with the LPs of its host process when none of them
// can run: the time bounds of the synchronization protocols, and messages to and from other host
// processes. The only door to a rank's matching state from outside mpilite.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "envelope.hpp"
#include "message.hpp"
#include "sim_time.hpp"

namespace mpilite {

class World;
struct Rank;

/// Calls `visit(rank, act)` for every rank with something to decide (undecided receives, a test
/// or probe waiting for an answer); `act` is the earliest simulated time at which it may act
/// without new input. Ranks with nothing left to decide leave the set.
void for_each_undecided(World& w, const std::function<void(Rank& rank, SimTime act)>& visit);

/// Every rank that is blocked (static lookahead raises them all).
void for_each_blocked(World& w, const std::function<void(Rank& rank)>& visit);

/// Raises `rank`'s input bound: its current decisions may use `now` (a bound narrowed to the
/// sources of what it waits for now), later ones `keep` (over every source). Decides what became
/// safe; returns whether the rank became ready.
bool raise_input_bound(World& w, Rank& rank, SimTime now, SimTime keep);
/// A request of `rank` completes at `at` or later, when the network says (its bytes have left
/// the NIC). A bound raised before the send started (a non-blocking collective's step issued
/// because a receive matched, during the raise itself) knew nothing of it: a test at a later
/// clock waits for the network instead of answering no from that bound.
void await_network(World& w, Rank& rank, SimTime at);

/// Whether `rank` waits for a decision that any source may change (a test, a probe or a wait
/// over several requests): then every host is a potential source.
bool waits_on_any_source(const Rank& rank);
/// Calls `source(world_rank)` for each world rank that may send what `rank`'s undecided receives
/// wait for; returns false (having called nothing more) when that is every rank of the world.
bool for_each_potential_source(const Rank& rank, const std::function<void(int world_rank)>& source);

/// Whether `rank` can take nothing from another host process before it acts again: it waits for
/// no test or probe, for no reply from another host, and every receive it has posted can only
/// match a rank of this host. (Messages from elsewhere that reach it meanwhile wait unmatched.)
bool waits_only_within_host(World& w, const Rank& rank);
/// Whether every unfinished rank waits only within the host (waits_only_within_host): checks the
/// ranks listed by World::may_wait_elsewhere(), and drops those that do not.
bool all_wait_within_host(World& w);

/// What the host's ranks did that may let another rank act: messages sent and received (from
/// other host processes too), steps of collectives.
std::uint64_t activity(const World& w);
/// The synchronization core found, while no rank could run, that `world_rank` alone can act in
/// the whole run: every other unfinished rank waits for a message only it could cause and nothing
/// is in flight (-1: not so), when activity() was `as_of` (a finding that is older than what the
/// ranks did since says nothing). Its polls then wait for what only it could bring about
/// (spend_poll counts them).
void only_one_acts(World& w, int world_rank, std::uint64_t as_of);
/// The same of the ranks of this host process only (other hosts' ranks unknown): their polls are
/// counted, and when they reach the limit, this returns true (the run must say whether the rank
/// is alone everywhere, through only_one_acts) instead of ending the run.
bool only_one_acts_here(World& w, int world_rank);

/// Static lookahead: the earliest time `rank` may act: its clock or the post time of a receive
/// that may answer an incoming message, not before its own input bound.
SimTime earliest_action(const Rank& rank);

Envelope envelope_of(const Message& m);
/// The packed data of a message to another host (m.bytes long).
const std::byte* payload_of(const Message& m);
/// A message from another host arrives: queues it at its local destination and matches.
void deliver_from_host(World& w, const Envelope& e, std::span<const std::byte> payload);
/// The reply to a send of this host arrives from another host.
void reply_from_host(World& w, const Reply& reply);
/// A rendezvous's clear-to-send or data from another host process (HostDelivery::transfer_remote).
void transfer_from_host(World& w, const Transfer& t);

} // namespace mpilite
