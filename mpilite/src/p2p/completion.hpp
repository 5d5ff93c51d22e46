// Completion of some of several requests (MPI_Testany, MPI_Waitsome, MPI_Testsome) and status
// queries, in simulated time: the answers depend only on simulated times, never on the order
// in which the host ran the ranks (docs/model.md, "Tests and polls").
#pragma once

#include <cstddef>
#include <vector>

#include "rank.hpp"
#include "request.hpp"

namespace mpilite {

class World;

/// MPI_Testany: the index of the request that completes first (ties: lowest index), charged,
/// if it completed by the rank's clock; otherwise -1 and the call costs the poll overhead.
/// Null entries are skipped; the caller handles the all-null case.
long test_any(World& w, Rank& r, Request* const* reqs, std::size_t n);

/// MPI_Waitsome: with t1 the completion time of the request that completes first, the call
/// returns at T = max(clock, t1) with every request completed by T (indices in increasing
/// order), charged in completion order.
std::vector<std::size_t> wait_some(World& w, Rank& r, Request* const* reqs, std::size_t n);

/// MPI_Testsome: every request completed by the rank's clock (indices in increasing order),
/// charged; none costs the poll overhead.
std::vector<std::size_t> test_some(World& w, Rank& r, Request* const* reqs, std::size_t n);

/// MPI_Request_get_status: whether `q` completed by the rank's clock, charging nothing but the
/// poll overhead of a "no" (the wait or test that frees it charges the completion).
bool completed_by_clock(World& w, Rank& r, const Request& q);

} // namespace mpilite
