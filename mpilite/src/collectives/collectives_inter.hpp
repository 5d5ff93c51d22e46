// The collectives mpisim runs on intercommunicators, built as MPICH builds them: a collective
// within each group (on the intercomm's local part) and an exchange between the two leaders.
// Every other collective refuses an intercommunicator (CollectiveCall::begin).
#pragma once

#include <cstddef>

#include "comm.hpp"
#include "datatype.hpp"

namespace mpilite {

class World;
struct Rank;
struct Op;

/// Returns once every member of both groups has entered.
void inter_barrier(World& w, Rank& r, const Comm& inter);

/// `root` is MPI_ROOT at the root, MPI_PROC_NULL at the other members of its group, and the
/// root's rank in the remote group at the members of the receiving group.
void inter_bcast(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type, int root,
                 const Comm& inter);

/// Each group gets the reduction of the other group's contributions. Returns an MPI error code.
int inter_allreduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
                    const Datatype& type, const Op& op, const Comm& inter);

} // namespace mpilite
