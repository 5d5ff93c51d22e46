// Collective operations built on point-to-point messages (MPICH's algorithms for small
// messages), so their simulated cost is the cost of their messages.
#pragma once

#include <cstddef>

#include "comm.hpp"
#include "datatype.hpp"
#include "op.hpp"
#include "rank.hpp"

namespace mpilite {

class World;

/// Dissemination barrier: ceil(log2 p) rounds of zero-byte messages.
void barrier(World& w, Rank& r, const Comm& c);

/// Binomial-tree broadcast from `root`.
void bcast(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type, int root,
           const Comm& c);

/// Binomial-tree reduction to `root`, applied in rank order for non-commutative ops.
/// `sendbuf` may be MPI_IN_PLACE at the root. Returns an MPI error code.
int reduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
           const Datatype& type, const Op& op, int root, const Comm& c);

/// Recursive-doubling allreduce (with MPICH's fold for non-power-of-two sizes).
int allreduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
              const Datatype& type, const Op& op, const Comm& c);

} // namespace mpilite
