#include "color_groups.hpp"

#include <algorithm>
#include <compare>

#include "mpi.h"

namespace mpilite {

std::vector<ColorGroup> color_groups(std::span<const ColorKey> entries,
                                     const std::function<int(int)>& world_of,
                                     std::optional<int> only) {
  struct Entry {
    int color, key, rank;
    auto operator<=>(const Entry&) const = default;
  };
  std::vector<Entry> order;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ColorKey e = entries[i];
    if (e.color != MPI_UNDEFINED && (!only || e.color == *only))
      order.push_back({e.color, e.key, static_cast<int>(i)});
  }
  // Keys often follow the ranks, up or down: spare the sort then.
  if (std::is_sorted(order.rbegin(), order.rend()))
    std::reverse(order.begin(), order.end());
  else if (!std::is_sorted(order.begin(), order.end()))
    std::sort(order.begin(), order.end());
  std::vector<ColorGroup> groups;
  for (auto first = order.begin(); first != order.end();) {
    const auto last =
        std::find_if(first, order.end(), [&](const Entry& e) { return e.color != first->color; });
    std::vector<int> world;
    world.reserve(static_cast<std::size_t>(last - first));
    for (auto it = first; it != last; ++it)
      world.push_back(world_of(it->rank));
    groups.push_back({first->color, RankList::of(std::move(world))});
    first = last;
  }
  return groups;
}

std::shared_ptr<const RankList> group_of(const std::vector<ColorGroup>& groups, int color) {
  const auto it = std::lower_bound(groups.begin(), groups.end(), color,
                                   [](const ColorGroup& g, int c) { return g.color < c; });
  return it != groups.end() && it->color == color ? it->members : nullptr;
}

} // namespace mpilite
