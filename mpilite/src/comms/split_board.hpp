// MPI_Comm_split's (color, key) entries where every member of the parent communicator lives in
// this host process: one table for all of them instead of one per member.
#pragma once

#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

namespace mpilite {

struct Comm;

/// One member's arguments to MPI_Comm_split.
struct ColorKey {
  int color;
  int key;
};

/// Each member of a split deposits its entry and gets the split's round, whose table is complete
/// once the member's allgather (comm_agreement.hpp) has heard, through its messages, from every
/// other member. Those messages then carry the allgather's sizes, for its time, but no entries:
/// a table per member would cost p entries per member while they wait, p^2 in all (an
/// MPI_Comm_split at 40 000 ranks took 15 GiB).
class SplitBoard {
public:
  struct Round {
    explicit Round(std::size_t members)
        : entries(members), wire_out(members / 2 + 1), wire_in(members / 2 + 1) {}
    std::vector<ColorKey> entries; ///< by rank in the parent communicator
    /// What the allgather's messages are sent from and received into (at most half the members'
    /// entries each): their contents are not read, only their sizes count.
    std::vector<ColorKey> wire_out, wire_in;
    std::size_t deposited = 0;
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
