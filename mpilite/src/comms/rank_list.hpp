// The ordered members of a group or communicator, as world ranks, with lookup both ways.
#pragma once

#include <memory>
#include <vector>

#include "mpi.h"

namespace mpilite {

/// An ordered set of world ranks: member i of a group or communicator is world rank world(i).
/// Immutable once made, so groups and communicators share one list (a 100 000-rank communicator
/// and every group taken from it hold one copy). The identity 0..n-1 (MPI_COMM_WORLD and
/// everything congruent to it) stores no list at all.
class RankList {
public:
  /// The identity list 0..n-1.
  static std::shared_ptr<const RankList> identity(int n);
  /// The list of `world_ranks` (distinct, non-negative), in that order.
  static std::shared_ptr<const RankList> of(std::vector<int> world_ranks);

  int size() const { return size_; }
  /// World rank of member `r` (0 <= r < size()).
  int world(int r) const { return world_.empty() ? r : world_[static_cast<std::size_t>(r)]; }
  /// Member index of world rank `w`, or MPI_UNDEFINED: O(1) for the identity, else O(log n).
  int rank(int w) const;
  bool is_identity() const { return world_.empty(); }

  /// Same members in the same order.
  bool same_order(const RankList& o) const;
  /// Same members, in any order.
  bool same_set(const RankList& o) const;

private:
  int size_ = 0;
  std::vector<int> world_;    ///< world rank of each member; empty for the identity
  std::vector<int> by_world_; ///< member indices sorted by world rank; empty if world_ ascends
};

} // namespace mpilite
