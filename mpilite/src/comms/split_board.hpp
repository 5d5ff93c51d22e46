// MPI_Comm_split's (color, key) entries where every member of the parent communicator lives in
// this host process: one table for all of them instead of one per member.
#pragma once

#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

#include "color_groups.hpp"

namespace mpilite {

struct Comm;

/// Each member of a split deposits its entry and gets the split's round, whose table is complete
/// once the member's allgather (comm_agreement.hpp) has heard, through its messages, from every
/// other member. Those messages then carry the allgather's sizes, for its time, but no entries
/// (size_only_bytes): a table per member would cost p entries per member while they wait, p^2 in
/// all (an MPI_Comm_split at 40 000 ranks took 15 GiB).
class SplitBoard {
public:
  struct Round {
    explicit Round(std::size_t members) : entries(members) {}
    std::vector<ColorKey> entries; ///< by rank in the parent communicator
    std::size_t deposited = 0;
    /// Every color's group (color_groups), made once the table is complete by the first member
    /// that needs it: one sort for all members instead of a scan of the p entries by each.
    std::vector<ColorGroup> groups;
    bool grouped = false;
  };

  /// The round of the split of `parent` that member `rank` (of `size`) is in, after depositing
  /// `mine` in it. Every member splits a communicator in the same order, so the round filling
  /// when a member comes is that member's: it fills with the size-th deposit.
  std::shared_ptr<Round> deposit(const Comm& parent, int size, int rank, ColorKey mine);

private:
  /// Rounds being filled, by parent communicator: one object per (context, members) in a host
  /// process, where a context id alone may name several disjoint communicators.
  std::unordered_map<const Comm*, std::shared_ptr<Round>> filling_;
};

} // namespace mpilite
