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

/// Each member of a split in this host process deposits its entry and gets the split's round,
/// whose table is complete once the member's allgather (comm_agreement.hpp) has heard, through its
/// messages, from every other member. The messages between members of this host process then
/// carry the allgather's sizes, for its time, but no entries (size_only_bytes); those from
/// another host process carry theirs, which their receiver writes into the table. A table per
/// member would cost p entries per member while they wait, p^2 in all (an MPI_Comm_split at
/// 40 000 ranks took 15 GiB).
class SplitBoard {
public:
  struct Round {
    explicit Round(std::size_t members) : entries(2 * members) {}
    /// The parent communicator's size.
    std::size_t size() const { return entries.size() / 2; }
    /// Member i's entry at i and at size + i (i in rank order of the parent communicator): a
    /// member's Bruck rounds then send and receive whole runs of it (comm_agreement.cpp).
    std::vector<ColorKey> entries;
    /// Sets the entry of member `i` (0 <= i < 2 * size) at both its places.
    void know(std::size_t i, ColorKey e) {
      const std::size_t p = size();
      entries[i % p] = e;
      entries[i % p + p] = e;
    }
    std::size_t deposited = 0;
    /// Every color's group (color_groups), made once the table is complete by the first member
    /// that needs it: one sort for all members instead of a scan of the p entries by each.
    std::vector<ColorGroup> groups;
    bool grouped = false;
  };

  /// The round of the split of `parent` (`size` members, `local` of them in this host process)
  /// that member `rank` is in, after depositing `mine` in it. Every member splits a communicator
  /// in the same order, so the round filling when a member comes is that member's: it fills with
  /// the local-th deposit.
  std::shared_ptr<Round> deposit(const Comm& parent, int size, int local, int rank, ColorKey mine);

private:
  /// Rounds being filled, by parent communicator: one object per (context, members) in a host
  /// process, where a context id alone may name several disjoint communicators.
  std::unordered_map<const Comm*, std::shared_ptr<Round>> filling_;
};

} // namespace mpilite
