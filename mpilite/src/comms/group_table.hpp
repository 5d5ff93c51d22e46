// MPI groups: handles of ordered sets of world ranks.
#pragma once

#include <memory>

#include "handle_table.hpp"
#include "mpi.h"
#include "rank_list.hpp"

namespace mpilite {

/// The groups the program holds. A group shares its RankList with the communicator it came from.
class GroupTable {
public:
  /// The members of group `h` (MPI_GROUP_EMPTY has none), or null if `h` is not a group.
  const std::shared_ptr<const RankList>* find(MPI_Group h) {
    if (h == MPI_GROUP_EMPTY) return &empty_;
    return table_.find(h);
  }
  /// A new handle for `members`; MPI_GROUP_EMPTY if there are none.
  MPI_Group add(std::shared_ptr<const RankList> members) {
    return members->size() == 0 ? MPI_GROUP_EMPTY : table_.add(std::move(members));
  }
  /// Frees a group the program made (MPI_GROUP_EMPTY is never freed).
  void erase(MPI_Group h) {
    if (h != MPI_GROUP_EMPTY) table_.erase(h);
  }

private:
  std::shared_ptr<const RankList> empty_ = RankList::of({});
  HandleTable<std::shared_ptr<const RankList>> table_{0x88000000u};
};

} // namespace mpilite
