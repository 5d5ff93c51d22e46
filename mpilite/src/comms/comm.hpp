// Communicators: a group of world ranks and the context ids that separate their traffic.
#pragma once

#include <memory>
#include <string>

#include "mpi.h"
#include "rank_list.hpp"
#include "topology.hpp"

namespace mpilite {

/// Each communicator owns a block of kContextStride consecutive context ids, starting at a
/// multiple of the stride: `context` for point-to-point, `context + 1` for collectives,
/// `context + 2` for agreements that run among part of its members (MPI_Comm_create_group) and
/// `context + 3` for partitioned point-to-point (which matches only itself).
inline constexpr int kContextStride = 4;

/// One communicator, shared by all its members that live in this host process: they see the
/// same handle and the same object. What each member keeps for itself (error handler, name,
/// attributes) is in its Rank (comm_local.hpp).
struct Comm {
  MPI_Comm handle = MPI_COMM_NULL;
  int context = 0; ///< point-to-point context; a multiple of kContextStride
  int size = 0;
  std::shared_ptr<const RankList> group; ///< members; null for MPI_COMM_SELF
  bool self = false;                     ///< MPI_COMM_SELF: the one member is the caller
  std::string name; ///< predefined name, else the name a member gave it last (for messages)
  std::shared_ptr<const Topology> topology; ///< null if none
  /// An intercommunicator's remote group, null for an intracommunicator. `group` is then the
  /// local group: what MPI_Comm_size/rank/group report, while point-to-point ranks name `remote`.
  /// The two groups' objects share the context id (their members are disjoint).
  std::shared_ptr<const RankList> remote;

  // Sharing by the local members (comm_table.cpp).
  int local_members = 0; ///< members in this host process
  int joined = 0;        ///< local members that have received the handle so far
  int holders = 0;       ///< local members that have it and have not freed it

  int coll_context() const { return context + 1; }
  int subset_context() const { return context + 2; }
  int partitioned_context() const { return context + 3; }

  /// World rank of comm rank `r` for a call made by world rank `caller`.
  int world_of(int r, int caller) const { return self ? caller : group->world(r); }
  /// Comm rank of world rank `w`, or MPI_UNDEFINED if it is not a member.
  int rank_of(int w) const { return self ? 0 : group->rank(w); }
  bool inter() const { return remote != nullptr; }
  /// How many ranks a point-to-point rank may name: the remote group's size for an intercomm.
  int peer_count() const { return remote ? remote->size() : size; }
  /// World rank of point-to-point rank `r` (a rank of the remote group for an intercomm).
  int peer_world(int r, int caller) const {
    return remote ? remote->world(r) : world_of(r, caller);
  }
  /// Point-to-point rank of world rank `w` (MPI_SOURCE of a message from `w`).
  int peer_rank(int w) const { return remote ? remote->rank(w) : rank_of(w); }
  /// The name for messages: "MPI_COMM_WORLD", a name the program set, or the handle.
  std::string label() const;
};

} // namespace mpilite
