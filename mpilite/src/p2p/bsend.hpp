// The buffer of MPI_Buffer_attach in simulated time: a buffered send above the eager limit
// holds `bytes + MPI_BSEND_OVERHEAD` of it from the send until its message has been
// transmitted (the receiver matched it and the data left: the time a rendezvous send would
// complete). Smaller buffered sends are transmitted eagerly and give their space back at once,
// but MPI_Buffer_detach still waits until the network has sent their bytes.
#pragma once

#include <cstddef>

#include "rank.hpp"
#include "request.hpp"

namespace mpilite {

class World;

/// Bytes of the attached buffer in use at the rank's clock: buffered messages not transmitted
/// by then. A message counts as transmitted once it has been matched and its transmission time
/// is not later than the clock.
std::size_t bsend_in_use(World& w, Rank& r);

/// Takes `space` bytes of the attached buffer for a buffered message (0 for one sent eagerly).
/// Returns the request that the message's transmission completes (for rendezvous, its id is the
/// message's reply_to; for eager, the network's word that its bytes have left).
Request* reserve_bsend(World& w, Rank& r, std::size_t space);

/// Blocks until every buffered message of `r` has been transmitted and advances the clock to
/// the last transmission (MPI_Buffer_detach).
void drain_bsend(World& w, Rank& r);

} // namespace mpilite
