// Communicators: a group of world ranks and the context ids that separate their traffic.
#pragma once

#include <string>
#include <vector>

#include "mpi.h"

namespace mpilite {

struct Comm {
  MPI_Comm handle = MPI_COMM_NULL;
  int context = 0; ///< point-to-point context; collectives use context + 1
  int size = 0;
  std::vector<int> members; ///< world rank of each comm rank; empty for the identity (WORLD)
  bool self = false;        ///< MPI_COMM_SELF: the one member is the caller
  std::string name;

  int coll_context() const { return context + 1; }

  /// World rank of comm rank `r` for a call made by world rank `caller`.
  int world_of(int r, int caller) const {
    if (self) return caller;
    return members.empty() ? r : members[static_cast<std::size_t>(r)];
  }
  /// Comm rank of world rank `w` (which must be a member).
  int rank_of(int w) const {
    if (self) return 0;
    if (members.empty()) return w;
    for (std::size_t i = 0; i < members.size(); ++i)
      if (members[i] == w) return static_cast<int>(i);
    return MPI_UNDEFINED;
  }
};

} // namespace mpilite
