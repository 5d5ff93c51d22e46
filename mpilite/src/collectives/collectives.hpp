// Collective operations built on point-to-point messages with the algorithms MPICH selects by
// default for each message size (docs/model.md, "Collectives", lists the thresholds), so their
// simulated cost is the cost of their messages.
//
// Each build_* function is the calling rank's part of one collective, as the body of a schedule
// (collective_schedule.hpp): blocking and non-blocking collectives run the same bodies. Ranks
// are ranks of the schedule's communicator; counts are in elements of the given types. The
// reducing ones apply the schedule's op (Schedule::set_op) in MPI's order: ranks are combined
// in increasing order for non-commutative ops.
#pragma once

#include <cstddef>
#include <vector>

#include "collective_schedule.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "op.hpp"
#include "rank.hpp"

namespace mpilite {

class World;

// ---- schedules ----------------------------------------------------------------------------

/// Dissemination barrier: ceil(log2 p) rounds of zero-byte messages.
CollTask build_barrier(Schedule& s);

/// Binomial tree below 12 KiB or 8 ranks; scatter + recursive-doubling allgather below 512 KiB
/// on a power of two; scatter + ring allgather otherwise.
CollTask build_bcast(Schedule& s, void* buf, std::size_t count, const Datatype& type, int root);

/// Binomial tree (rooted at 0, then sent to `root`, for non-commutative ops); Rabenseifner's
/// reduce-scatter + gather above 2 KiB for predefined ops when count >= the largest power of two
/// <= p. `sendbuf` may be MPI_IN_PLACE at the root.
CollTask build_reduce(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                      const Datatype& type, int root);

/// Recursive doubling (with MPICH's fold for non-power-of-two sizes); Rabenseifner's
/// reduce-scatter + allgather above 2 KiB for predefined ops when count >= that power of two.
CollTask build_allreduce(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                         const Datatype& type);

/// Binomial trees. `sendbuf` (gather) or `recvbuf` (scatter) may be MPI_IN_PLACE at the root;
/// the root's counts and types describe one rank's block.
CollTask build_gather(Schedule& s, const void* sendbuf, std::size_t scount, const Datatype& stype,
                      void* recvbuf, std::size_t rcount, const Datatype& rtype, int root);
CollTask build_scatter(Schedule& s, const void* sendbuf, std::size_t scount, const Datatype& stype,
                       void* recvbuf, std::size_t rcount, const Datatype& rtype, int root);

/// Linear: the root exchanges with every rank whose count is not zero. `counts` and `displs`
/// (in elements) matter at the root only.
CollTask build_gatherv(Schedule& s, const void* sendbuf, std::size_t scount, const Datatype& stype,
                       void* recvbuf, const int* counts, const int* displs, const Datatype& rtype,
                       int root);
CollTask build_scatterv(Schedule& s, const void* sendbuf, const int* counts, const int* displs,
                        const Datatype& stype, void* recvbuf, std::size_t rcount,
                        const Datatype& rtype, int root);

/// By the total size gathered: recursive doubling below 512 KiB on a power of two, Bruck below
/// 80 KiB, ring otherwise (allgatherv's ring sends blocks above 32 KiB in pieces).
/// `sendbuf` may be MPI_IN_PLACE (each rank's block is already in place in `recvbuf`).
CollTask build_allgather(Schedule& s, const void* sendbuf, std::size_t scount,
                         const Datatype& stype, void* recvbuf, std::size_t rcount,
                         const Datatype& rtype);
CollTask build_allgatherv(Schedule& s, const void* sendbuf, std::size_t scount,
                          const Datatype& stype, void* recvbuf, const int* counts,
                          const int* displs, const Datatype& rtype);

/// Alltoall: Bruck for blocks <= 256 bytes on >= 8 ranks, batches of 32 non-blocking exchanges
/// up to 32 KiB, pairwise exchange above. Alltoallv and Alltoallw: batches. With
/// `sendbuf` == MPI_IN_PLACE (all three): pairwise exchange-and-replace. Alltoallw's
/// displacements are in bytes.
CollTask build_alltoall(Schedule& s, const void* sendbuf, std::size_t scount, const Datatype& stype,
                        void* recvbuf, std::size_t rcount, const Datatype& rtype);
CollTask build_alltoallv(Schedule& s, const void* sendbuf, const int* scounts, const int* sdispls,
                         const Datatype& stype, void* recvbuf, const int* rcounts,
                         const int* rdispls, const Datatype& rtype);
CollTask build_alltoallw(Schedule& s, const void* sendbuf, const int* scounts, const int* sdispls,
                         std::vector<const Datatype*> stypes, void* recvbuf, const int* rcounts,
                         const int* rdispls, std::vector<const Datatype*> rtypes);

/// Commutative ops: recursive halving below 512 KiB in all, pairwise exchange above.
/// Non-commutative: Traff's butterfly on a power of two with equal counts, recursive doubling
/// otherwise. `sendbuf` may be MPI_IN_PLACE (the input is then in `recvbuf`).
CollTask build_reduce_scatter(Schedule& s, const void* sendbuf, void* recvbuf,
                              std::vector<std::size_t> counts, const Datatype& type);

/// Recursive doubling. `sendbuf` may be MPI_IN_PLACE. Exscan leaves rank 0's `recvbuf` as is.
CollTask build_scan(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                    const Datatype& type);
CollTask build_exscan(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                      const Datatype& type);

/// One block of a neighbourhood collective: `count` elements of `type` at `buf`, sent to or
/// received from rank `peer` (MPI_PROC_NULL: nothing moves).
struct NeighborBlock {
  int peer;
  void* buf;
  std::size_t count;
  const Datatype* type;
};

/// The neighbourhood collectives: every send, in order, then every receive, waited for together
/// (MPICH's linear schedule). A peer that is a neighbour several times gets its blocks in slot
/// order, and messages between two ranks do not overtake, so the k-th block sent meets the k-th
/// receive posted (a Cartesian caller posts each dimension's receive from above first).
CollTask build_neighbor_exchange(Schedule& s, std::vector<NeighborBlock> sends,
                                 std::vector<NeighborBlock> recvs);

/// Points every block's type at a copy the schedule keeps (the program may free its types while
/// a non-blocking call runs).
void keep_types(Schedule& s, std::vector<NeighborBlock>& blocks);

// ---- blocking collectives for mpilite's own use ------------------------------------------

/// MPI_Barrier, MPI_Bcast, MPI_Reduce and MPI_Allreduce of rank `r` on `c`, run to completion.
/// The reductions return an MPI error code.
void barrier(World& w, Rank& r, const Comm& c);
void bcast(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type, int root,
           const Comm& c);
int reduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
           const Datatype& type, const Op& op, int root, const Comm& c);
int allreduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
              const Datatype& type, const Op& op, const Comm& c);

} // namespace mpilite
