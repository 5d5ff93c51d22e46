// The communicators of one host process, by handle.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "comm.hpp"

namespace mpilite {

/// Owns every communicator of the host process. MPI_COMM_WORLD and MPI_COMM_SELF always exist;
/// a communicator made by the program is one object shared by all its members in this host
/// process, which therefore see the same handle.
///
/// The members of a new communicator agree on its context id by messages (comm_agreement.hpp);
/// each host process then finds or makes its object from what every host can compute alike,
/// the context id and the member list, never from the order in which its ranks happen to run.
class CommTable {
public:
  /// `local_ranks`: how many ranks of the world live in this host process.
  CommTable(int world_size, int local_ranks);

  /// The communicator of handle `h`, or null.
  Comm* find(MPI_Comm h) {
    if (h == MPI_COMM_WORLD) return &world_;
    if (h == MPI_COMM_SELF) return &self_;
    const std::uint32_t i = static_cast<std::uint32_t>(h) & kIndexMask;
    if ((h & ~static_cast<int>(kIndexMask)) != kUserBase || i >= slots_.size() || !slots_[i])
      return nullptr;
    return slots_[i].get();
  }

  /// Counts the members of a list that live in this host process.
  using CountLocal = std::function<int(const RankList&)>;

  /// Called by each local member of a new communicator with context `context` and members
  /// `group`: the first one makes the object (`count_local` tells how many local members will
  /// join it), the others get the same one. Communicators that share a context id have disjoint
  /// members while they live, so (context, members) identifies one.
  Comm& join(int context, std::shared_ptr<const RankList> group, const CountLocal& count_local);
  /// The same for members known as a plain list (MPI_Comm_split): only the first local member
  /// turns it into a RankList; the others compare.
  Comm& join(int context, std::vector<int> members, const CountLocal& count_local);

  /// Called by each local member that frees `c`. The object goes when every local member has
  /// joined and freed it; if `pending` says a receive posted on it is still unmatched (MPI lets a
  /// program free a communicator with pending operations), it is kept until that is no longer so.
  void leave(Comm& c, const std::function<bool(const Comm&)>& pending);

private:
  /// Joins the object of `context` that another local member made, whose members satisfy `same`.
  Comm* join_open(int context, const std::function<bool(const RankList&)>& same);
  Comm& make(int context, std::shared_ptr<const RankList> group, int local_members);

  static constexpr std::uint32_t kIndexMask = 0x00ffffff;
  static constexpr int kUserBase = static_cast<int>(0x84000000u);

  Comm world_;
  Comm self_;
  std::vector<std::unique_ptr<Comm>> slots_; // program's communicators: handle kUserBase | index
  std::vector<std::uint32_t> free_slots_;
  std::unordered_multimap<int, Comm*> open_;   // by context: not yet joined by every local member
  std::vector<std::unique_ptr<Comm>> retired_; // freed, but a pending receive still names them
};

} // namespace mpilite
