// The collectives on intercommunicators, built as MPICH 4 builds them: collectives within each
// group (the intra-communicator algorithms, on the schedule's local group) and messages between
// the groups, so their simulated cost is that of those messages. Each build_inter_* function is
// the calling rank's part, as the body of a schedule on the intercommunicator
// (collective_schedule.hpp): blocking and non-blocking calls run the same bodies.
//
// Rooted collectives take MPI's `root`: MPI_ROOT at the root, MPI_PROC_NULL at the other members
// of its group, and the root's rank in the remote group at the members of the other group.
// Counts and types are the caller's: a receiving rank's describe one block of the other group.
// Nothing is in place on an intercommunicator.
#pragma once

#include <cstddef>
#include <vector>

#include "collectives.hpp"

namespace mpilite {

/// Barrier within each group, then a one-byte broadcast each way.
CollTask build_inter_barrier(Schedule& s);

/// The root sends to the other group's leader, which broadcasts within its group.
CollTask build_inter_bcast(Schedule& s, void* buf, std::size_t count, const Datatype& type,
                           int root);

/// Reduce within the group to its leader, which sends the result to the root.
CollTask build_inter_reduce(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                            const Datatype& type, int root);

/// Reduce within each group, the leaders exchange their results, broadcast within each group.
CollTask build_inter_allreduce(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                               const Datatype& type);

/// Gather within the group to its leader, which sends the blocks to the root.
CollTask build_inter_gather(Schedule& s, const void* sendbuf, std::size_t scount,
                            const Datatype& stype, void* recvbuf, std::size_t rcount,
                            const Datatype& rtype, int root);

/// The root sends every block to the other group's leader, which scatters them.
CollTask build_inter_scatter(Schedule& s, const void* sendbuf, std::size_t scount,
                             const Datatype& stype, void* recvbuf, std::size_t rcount,
                             const Datatype& rtype, int root);

/// Linear: the root exchanges with every rank of the other group whose count is not zero.
CollTask build_inter_gatherv(Schedule& s, const void* sendbuf, std::size_t scount,
                             const Datatype& stype, void* recvbuf, const int* counts,
                             const int* displs, const Datatype& rtype, int root);
CollTask build_inter_scatterv(Schedule& s, const void* sendbuf, const int* counts,
                              const int* displs, const Datatype& stype, void* recvbuf,
                              std::size_t rcount, const Datatype& rtype, int root);

/// Gather within each group to its leader, then a broadcast each way (the low group's first).
CollTask build_inter_allgather(Schedule& s, const void* sendbuf, std::size_t scount,
                               const Datatype& stype, void* recvbuf, std::size_t rcount,
                               const Datatype& rtype);

/// A linear gatherv to each leader from the other group (the low group's first), then a
/// broadcast within each group.
CollTask build_inter_allgatherv(Schedule& s, const void* sendbuf, std::size_t scount,
                                const Datatype& stype, void* recvbuf, const int* counts,
                                const int* displs, const Datatype& rtype);

/// Alltoall, Alltoallv and Alltoallw: pairwise exchange over max(local, remote size) steps.
/// `sends[i]` and `recvs[i]` are the blocks for rank i of the remote group (their `peer`
/// is not read).
CollTask build_inter_alltoall(Schedule& s, std::vector<NeighborBlock> sends,
                              std::vector<NeighborBlock> recvs);

/// Reduce_scatter and Reduce_scatter_block: each group's reduction of its whole input (the sum
/// of `counts`, this group's blocks) goes to the other group's leader (the low group receives
/// first), which scatters it with `counts`.
CollTask build_inter_reduce_scatter(Schedule& s, const void* sendbuf, void* recvbuf,
                                    std::vector<std::size_t> counts, const Datatype& type);

} // namespace mpilite
