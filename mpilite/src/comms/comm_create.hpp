// Making and freeing communicators: the steps MPI_Comm_dup, _split, _create, _create_group and
// the topology constructors share. Every new communicator costs the messages of its agreement
// (comm_agreement.hpp) on the parent.
#pragma once

#include <memory>

#include "comm.hpp"
#include "rank_list.hpp"
#include "topology.hpp"

namespace mpilite {

class ApiCall;
class World;
struct Rank;

/// The members of `c` for rank `r` (MPI_COMM_SELF: r alone).
std::shared_ptr<const RankList> members_of(const Comm& c, const Rank& r);

/// MPI_Comm_dup: a communicator with the members and topology of `parent`, a context of its own,
/// the caller's error handler of `parent` and the attributes its copy callbacks copy.
int dup_comm(ApiCall& c, const Comm& parent, MPI_Comm* out);

/// Makes the caller a member of the communicator of `group` (and `remote`, for an
/// intercommunicator) whose context its members agreed on, with the error handler it has for
/// `parent`; returns its handle.
MPI_Comm join_new(ApiCall& c, const Comm& parent, int context,
                  std::shared_ptr<const RankList> group, std::shared_ptr<const RankList> remote);
/// MPI_SUCCESS, or the error that no context id (`context` < 0) is free at every member of `over`.
int new_context(ApiCall& c, const Comm& over, int context);

/// Collective over `parent`: the members agree on a context; a caller in `group` (which the
/// caller checked to be part of parent) gets a communicator of `group` with topology `topo`,
/// the others MPI_COMM_NULL.
int create_comm(ApiCall& c, const Comm& parent, std::shared_ptr<const RankList> group,
                std::shared_ptr<const Topology> topo, MPI_Comm* out);

/// A stand-in intracommunicator of `group` (members of `parent`) for collectives among them
/// alone, as the calls that are collective over a group only need: they run on the parent's
/// subset context, tagged from `tag` (the caller's; the same at every member).
Comm group_part(Rank& r, const Comm& parent, std::shared_ptr<const RankList> group, int tag);

/// MPI_Comm_create_group: like create_comm, but collective over the members of `group` only
/// (which must include the caller); the agreement runs on the parent's subset context, its
/// messages tagged with the call's `tag`.
int create_comm_of_group(ApiCall& c, const Comm& parent, std::shared_ptr<const RankList> group,
                         int tag, MPI_Comm* out);

/// MPI_Comm_split: the members exchange (color, key) and agree on one context for all colors
/// (their groups are disjoint); each color's members, ordered by (key, rank in parent), form a
/// communicator with topology `topo`; MPI_UNDEFINED gets MPI_COMM_NULL.
int split_comm(ApiCall& c, const Comm& parent, int color, int key,
               std::shared_ptr<const Topology> topo, MPI_Comm* out);

/// MPI_Comm_free by the caller: deletes its attributes (callbacks first; an error stops here),
/// drops its error handler and context id and leaves the shared object.
int free_comm(ApiCall& c, Comm& comm);

} // namespace mpilite
