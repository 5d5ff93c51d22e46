// MPI_Comm_split's rule for the communicators it makes: one per color, its members ordered by
// (key, rank in the parent).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "rank_list.hpp"

namespace mpilite {

/// One member's arguments to MPI_Comm_split.
struct ColorKey {
  int color;
  int key;
};

/// A color and the group of its members.
struct ColorGroup {
  int color;
  std::shared_ptr<const RankList> members;
};

/// The groups MPI_Comm_split makes from `entries`, member i's (color, key) in rank order of a
/// group whose member i is world rank `world_of(i)`: one per color but MPI_UNDEFINED, sorted by
/// color. With `only`, that color's group alone (none when no member has it), which costs a scan
/// and a sort of that color's members instead of a sort of all of them.
std::vector<ColorGroup> color_groups(std::span<const ColorKey> entries,
                                     const std::function<int(int)>& world_of,
                                     std::optional<int> only = std::nullopt);

/// The group of `color` among `groups` (as color_groups gives them), or null when it has none.
std::shared_ptr<const RankList> group_of(const std::vector<ColorGroup>& groups, int color);

} // namespace mpilite
