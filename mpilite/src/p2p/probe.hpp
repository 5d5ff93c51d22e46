// Probes: the message a receive with a given envelope would get, found without receiving it.
#pragma once

#include <cstddef>

#include "comm.hpp"
#include "datatype.hpp"
#include "rank.hpp"
#include "request.hpp"

namespace mpilite {

class World;

/// Posts a blocking probe (MPI_Probe with Peek, MPI_Mprobe with Take) for world rank `source`
/// (or MPI_ANY_SOURCE): it is matched exactly like a receive posted now, and completes when its
/// message is there (max(clock, recv timestamp)). Its status describes the message; with Take
/// the message leaves matching and waits in the request's `message` for receive_probed.
Request* start_probe(World& w, Rank& r, Request::Probe how, int source, int tag, int context,
                     const Comm& comm);

/// MPI_Iprobe at the rank's clock c: the message a receive with this envelope would get, if it
/// has arrived by c; otherwise null, and the call costs the poll overhead. The rank's pending
/// receives come first: a message one of them takes by c is not reported, nor any message one
/// of them could still take. May block (in host time only) until no message that arrives by c
/// can still come. See docs/model.md, "Tests and polls".
Message* probe_now(World& w, Rank& r, int source, int tag, int context, const Comm& comm);

/// Takes `m` (found by probe_now) out of matching into a completed Take probe request, as
/// MPI_Improbe does.
Request* take_probed(World& w, Rank& r, Message& m, const Comm& comm);

/// Receives the message a Take probe set aside (MPI_Mrecv, MPI_Imrecv) as a receive posted now,
/// and frees `probe`. Returns the receive's request (complete in the engine).
Request* receive_probed(World& w, Rank& r, Request& probe, void* buf, std::size_t count,
                        const Datatype& type);

} // namespace mpilite
