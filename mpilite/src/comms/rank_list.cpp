#include "rank_list.hpp"

#include <algorithm>
#include <numeric>

namespace mpilite {

std::shared_ptr<const RankList> RankList::identity(int n) {
  auto l = std::make_shared<RankList>();
  l->size_ = n;
  return l;
}

std::shared_ptr<const RankList> RankList::of(std::vector<int> world_ranks) {
  auto l = std::make_shared<RankList>();
  l->size_ = static_cast<int>(world_ranks.size());
  bool identity = true, ascending = true;
  for (std::size_t i = 0; i < world_ranks.size(); ++i) {
    identity = identity && world_ranks[i] == static_cast<int>(i);
    ascending = ascending && (i == 0 || world_ranks[i - 1] < world_ranks[i]);
  }
  if (identity) return l;
  l->world_ = std::move(world_ranks);
  if (!ascending) {
    l->by_world_.resize(l->world_.size());
    std::iota(l->by_world_.begin(), l->by_world_.end(), 0);
    std::sort(l->by_world_.begin(), l->by_world_.end(), [&w = l->world_](int a, int b) {
      return w[static_cast<std::size_t>(a)] < w[static_cast<std::size_t>(b)];
    });
  }
  return l;
}

int RankList::rank(int w) const {
  if (world_.empty()) return w >= 0 && w < size_ ? w : MPI_UNDEFINED;
  if (by_world_.empty()) {
    auto it = std::lower_bound(world_.begin(), world_.end(), w);
    return it != world_.end() && *it == w ? static_cast<int>(it - world_.begin()) : MPI_UNDEFINED;
  }
  auto it = std::lower_bound(by_world_.begin(), by_world_.end(), w, [this](int i, int v) {
    return world_[static_cast<std::size_t>(i)] < v;
  });
  return it != by_world_.end() && world_[static_cast<std::size_t>(*it)] == w ? *it : MPI_UNDEFINED;
}

bool RankList::same_order(const RankList& o) const {
  if (this == &o) return true; // the members of a split's color share their group
  if (size_ != o.size_) return false;
  if (world_.empty() && o.world_.empty()) return true;
  for (int i = 0; i < size_; ++i)
    if (world(i) != o.world(i)) return false;
  return true;
}

bool RankList::same_set(const RankList& o) const {
  if (size_ != o.size_) return false;
  for (int i = 0; i < size_; ++i)
    if (o.rank(world(i)) == MPI_UNDEFINED) return false;
  return true;
}

} // namespace mpilite
