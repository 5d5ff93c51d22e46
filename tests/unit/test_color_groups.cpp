// MPI_Comm_split's grouping rule (color_groups), which the split of a communicator whose members
// all live in one host process applies once for every member and the others apply per member.
#include <gtest/gtest.h>

#include <vector>

#include "color_groups.hpp"
#include "mpi.h"

namespace {

std::vector<int> worlds(const mpilite::RankList& g) {
  std::vector<int> out;
  for (int i = 0; i < g.size(); ++i)
    out.push_back(g.world(i));
  return out;
}

// Member i is world rank 10 + i, so that a group shows which members it took.
int world_of(int i) {
  return 10 + i;
}

TEST(ColorGroups, OneGroupPerColorSortedByColorMembersByKeyThenRank) {
  const std::vector<mpilite::ColorKey> entries = {
      {5, 2}, {MPI_UNDEFINED, 0}, {3, 7}, {5, 1}, {3, 7}, {5, 2}, {3, -4}};
  const auto groups = mpilite::color_groups(entries, world_of);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].color, 3);
  EXPECT_EQ(worlds(*groups[0].members), (std::vector<int>{16, 12, 14})); // equal keys: by rank
  EXPECT_EQ(groups[1].color, 5);
  EXPECT_EQ(worlds(*groups[1].members), (std::vector<int>{13, 10, 15}));
  EXPECT_EQ(mpilite::group_of(groups, 5), groups[1].members);
  EXPECT_EQ(mpilite::group_of(groups, 4), nullptr);
  EXPECT_EQ(mpilite::group_of(groups, MPI_UNDEFINED), nullptr);
}

TEST(ColorGroups, OnlyOneColorAndKeysThatFollowTheRanksEitherWay) {
  const std::vector<mpilite::ColorKey> down = {{1, 9}, {0, 0}, {1, 5}, {1, 2}};
  const auto only = mpilite::color_groups(down, world_of, 1);
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(worlds(*only[0].members), (std::vector<int>{13, 12, 10}));
  EXPECT_TRUE(mpilite::color_groups(down, world_of, 2).empty());
  EXPECT_TRUE(mpilite::color_groups(down, world_of, MPI_UNDEFINED).empty());
  // Member i with color 0 and key i: the identity list of world ranks 0..3.
  const std::vector<mpilite::ColorKey> up = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  const auto all = mpilite::color_groups(up, [](int i) { return i; });
  ASSERT_EQ(all.size(), 1u);
  EXPECT_TRUE(all[0].members->is_identity());
  EXPECT_EQ(all[0].members->size(), 4);
}

} // namespace
