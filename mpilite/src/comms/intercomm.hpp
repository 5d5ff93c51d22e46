// Intercommunicators: two disjoint groups joined by one context id, agreed by both. Each
// group's members share an object whose `group` is their own and whose `remote` is the other;
// whatever both groups must agree on goes through their leaders (rank 0 of each group, or the
// leaders named to MPI_Intercomm_create), and each leader passes it on within its group.
#pragma once

#include <cstddef>

#include "comm.hpp"

namespace mpilite {

class ApiCall;
class World;
struct Rank;

/// The way from one group to the other: the caller's group `local` (a copy: it may be a
/// stand-in), its leader's rank there, and the leaders' messages: to or from world rank `peer`,
/// with `tag` on `context` of the communicator `over`.
struct LeaderLink {
  Comm local;
  int leader = 0;
  int peer = MPI_PROC_NULL;
  int tag = 0;
  int context = 0;
  const Comm* over = nullptr;
};

/// A stand-in intracommunicator of an intercomm's local group, for collectives within it: its
/// collective context is the intercomm's subset context, which no other traffic uses (the
/// two groups use it alike, but their members are disjoint).
Comm local_part(const Comm& inter);

/// The link of an intercommunicator's groups: between their ranks 0, on its collective context.
LeaderLink leader_link(const Comm& inter);

/// Whether the caller leads its group on `l`.
bool leads(const LeaderLink& l, const Rank& r);

/// The leader sends `mine` (n_mine bytes) to the other leader and receives `theirs`
/// (n_theirs bytes); then every member of the group gets `theirs` from its leader.
void swap_across(World& w, Rank& r, const LeaderLink& l, const void* mine, std::size_t n_mine,
                 void* theirs, std::size_t n_theirs);

/// The lowest context-id block free at every member of both groups, or -1.
int agree_context_across(World& w, Rank& r, const LeaderLink& l);

/// MPI_Intercomm_create and MPI_Intercomm_create_from_groups, once the caller checked their
/// arguments: `l` joins the caller's group (an intracommunicator, or a stand-in of a group) to
/// the other; at the local leader, l.peer is the remote leader's world rank.
int create_intercomm(ApiCall& c, const LeaderLink& l, MPI_Comm* out);

/// MPI_Comm_split on an intercommunicator: each group's members of the caller's `color`
/// (ordered by key, then rank) form the new intercommunicator's groups; MPI_UNDEFINED, or a color
/// that the other group does not have, gets MPI_COMM_NULL. Costs an allgather of (color, key) in
/// each group, the leaders' exchange of them and a broadcast in each group, and the agreement on
/// a context.
int split_intercomm(ApiCall& c, const Comm& inter, int color, int key, MPI_Comm* out);

/// MPI_Comm_create on an intercommunicator: `group` (the caller checked it to be part of its own
/// group; the same at every member of that group) and the other group's form the new one; a
/// caller not in `group`, or either group empty, gets MPI_COMM_NULL.
int create_from_intercomm(ApiCall& c, const Comm& inter, const RankList& group, MPI_Comm* out);

/// MPI_Intercomm_merge: an intracommunicator of both groups, the group that passed high = false
/// first (if both passed the same, the group whose leader has the lower world rank).
int merge_intercomm(ApiCall& c, const Comm& inter, bool high, MPI_Comm* out);

} // namespace mpilite
