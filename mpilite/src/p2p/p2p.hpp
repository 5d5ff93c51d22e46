// Point-to-point operations in simulated time, shared by the MPI API and the collectives.
#pragma once

#include <cstddef>

#include "comm.hpp"
#include "datatype.hpp"
#include "rank.hpp"
#include "request.hpp"

namespace mpilite {

class World;

enum class SendMode { Standard, Buffered, Synchronous, Ready };

/// Starts a send of `count` elements to world rank `dest` and returns its request. The sender's
/// clock advances by the send overhead; the message is stamped and delivered. `partitions`:
/// a partitioned send's partition count, which the receive checks (message.hpp).
Request* start_send(World& w, Rank& r, SendMode mode, const void* buf, std::size_t count,
                    const Datatype& type, int dest, int tag, int context, int partitions = 0);

/// Sends at simulated time `at` without touching the sender's clock: for operations that
/// progress on their own (non-blocking collectives), the send overhead is part of the request's
/// completion time instead. `from`: the critical path of the clock that sends at `at` (null:
/// off, or none; the message then carries none).
Request* send_at(World& w, Rank& r, SimTime at, SendMode mode, const void* buf, std::size_t count,
                 const Datatype& type, int dest, int tag, int context, int partitions = 0,
                 const CritPath* from = nullptr);

/// Posts a receive as if posted at simulated time `at` (see send_at); `from` is the critical
/// path of `at`.
Request* receive_at(World& w, Rank& r, SimTime at, void* buf, std::size_t count,
                    const Datatype& type, int source, int tag, int context, const Comm& comm,
                    int partitions = 0, const CritPath* from = nullptr);

/// Posts a receive from world rank `source` (or MPI_ANY_SOURCE) and returns its request.
/// `partitions`: a partitioned receive's partition count; a message with another count
/// completes it with an error (MPI requires the same partitioning on both sides).
Request* start_receive(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type,
                       int source, int tag, int context, const Comm& comm, int partitions = 0);

/// A request that is already complete (an operation with MPI_PROC_NULL).
Request* completed_request(World& w, Rank& r, RequestKind kind);

/// Blocks until every non-null request is complete, then advances the clock through their
/// completions in time order. The requests stay allocated.
void wait_all(World& w, Rank& r, Request* const* reqs, std::size_t n);

/// Blocks until at least one non-null request is complete; returns the index of the one that
/// completes first in simulated time (ties: lowest index), charged; -1 if all are null.
/// Answering may need the protocol's bound: a pending request might still complete earlier.
long wait_any(World& w, Rank& r, Request* const* reqs, std::size_t n);

/// MPI_Test semantics in simulated time: true (and charged) if all non-null requests have
/// completed by the rank's clock. May block until that question can be answered.
bool test_all(World& w, Rank& r, Request* const* reqs, std::size_t n);

/// Advances the clock of `r` through the completion of `q`: to its completion time, then the
/// receive overhead of a receive.
void charge(Rank& r, const Request& q);

/// Charges completed requests in the order they completed in simulated time (ties: index).
void charge_in_time_order(Rank& r, Request* const* reqs, std::size_t n);

/// Whether `q` has completed by the rank's clock: yes, no, or not decidable yet (it is pending
/// and a message that completes it might still arrive by the clock).
enum class ByClock { Yes, No, Unknown };
ByClock by_clock(const Rank& r, const Request& q);

/// Blocks until the protocol's bound passes `t` (r.eit > t) or something the rank waits for
/// happens (a request completes, a message arrives). `t` is also the rank's earliest output
/// time while it waits: it must not be later than the clock at which the caller may resume.
void await_decision(World& w, Rank& r, SimTime t);

/// Lets the receives `r` freed while active (MPI_Request_free; Rank::released_receives) take
/// the messages that are there by its clock. Nothing waits for such a receive, so without this
/// its buffer would be written only when the rank next matched something of that
/// communicator, though the program may know from other messages that the data came (a
/// barrier after the send) and read it. Called as the rank leaves an MPI call.
void deliver_released_receives(World& w, Rank& r);

/// Charges `r` the CPU time of a test or probe that found nothing (so that polling loops advance
/// in simulated time), as receive overhead on its critical path. `coming`: what it polls for is
/// on its way (a request completes at a known later time, a message arrives later). Otherwise the
/// kAlonePollLimit-th in a row while the rank alone can act ends the run.
void spend_poll(World& w, Rank& r, bool coming = false);
/// A poll that completes nothing of its own (MPI_Win_sync in a spin loop): the rank first lets
/// everything due by its clock happen (a window's service applies a put), then pays the poll.
void poll_progress(World& w, Rank& r);
/// How many failed polls in a row, while their rank alone can act (World::SoleActor), end the run:
/// a loop waiting for what nobody else can send is a deadlock the blocking call would report.
inline constexpr std::uint32_t kAlonePollLimit = 1u << 24;

/// What an exchange of `r` with world rank `dest` (MPI_Sendrecv, MPI_Isendrecv, or a collective's
/// step taken as one) that sent `sent` and received `received` bytes costs it beyond its two
/// messages, charged once both are done.
SimTime exchange_extra(World& w, const Rank& r, int dest, std::size_t sent, std::size_t received);

/// Send and receive at once (MPI_Sendrecv), waiting for both; returns the receive's error.
int send_receive(World& w, Rank& r, const void* sbuf, std::size_t scount, const Datatype& stype,
                 int dest, int stag, void* rbuf, std::size_t rcount, const Datatype& rtype,
                 int source, int rtag, int context, const Comm& comm, MPI_Status* status);

} // namespace mpilite
