// fat-tree (topologies/fat_tree.cpp): up to the nearest common switch and down, non-blocking.
#include "topology_test_helpers.hpp"

namespace {

using namespace topology_test;

TEST(TopologyFatTree, GoesUpToTheNearestCommonSwitch) {
  // 4-ary 2-tree: 16 nodes, leaf switches hold nodes 0-3, 4-7, ...
  const Topology t = make("fat-tree:4,2", 16);
  EXPECT_EQ(t.distance(0, 3), 2); // node, leaf switch, node
  EXPECT_EQ(t.distance(0, 4), 4); // up to the second level and down
  EXPECT_EQ(t.distance(0, 15), 4);
  EXPECT_EQ(t.diameter(), 4);
  // 2-ary 3-tree: 8 nodes.
  const Topology binary = make("fat-tree:2,3", 8);
  EXPECT_EQ(binary.distance(6, 7), 2);
  EXPECT_EQ(binary.distance(5, 6), 4); // 101 and 110 differ up to bit 1
  EXPECT_EQ(binary.distance(0, 7), 6);
  EXPECT_EQ(binary.distances_from({0}), (std::vector<int>{0, 2, 4, 4, 6, 6, 6, 6}));
  EXPECT_EQ(binary.distances_from({1, 6}), (std::vector<int>{2, 0, 4, 4, 4, 4, 0, 2}));
  expect_consistent_distances(binary);
  expect_consistent_distances(make("fat-tree:3,2", 9));
}

TEST(TopologyFatTree, RoutesHoldOnlyInjectionAndEjection) {
  const Topology t = make("fat-tree:2,3", 8);
  EXPECT_EQ(t.route(0, 7), (std::vector<Link>{injection(0), ejection(7)}));
  EXPECT_EQ(t.route(6, 7), (std::vector<Link>{injection(6), ejection(7)}));
}

TEST(TopologyFatTree, LevelsFollowTheRanksOrAreFixed) {
  EXPECT_EQ(make("fat-tree:4", 17).nodes(), 64); // three levels hold 17 nodes
  EXPECT_EQ(sized("fat-tree:4", 17), "fat-tree:4,3");
  EXPECT_EQ(sized("fat-tree:4", 1), "fat-tree:4,1");
  EXPECT_TRUE(contains(error_of("fat-tree:2,2", 5), "has 4 nodes, but the ranks need 5"));
  EXPECT_EQ(make("fat-tree:4,2", 16).describe(),
            "fat-tree (4-ary 2-tree) (16 nodes, diameter 4 links)");
}

TEST(TopologyFatTree, TextForms) {
  expect_reads_back("fat-tree:4");
  expect_reads_back("fat-tree:4,3");
  for (const char* text :
       {"fat-tree", "fat-tree:1", "fat-tree:4,2,1", "fat-tree:x", "fat-tree:4,0"})
    expect_rejected(text, "give the switch arity K >= 2, and optionally the levels");
  expect_rejected("fat-tree:2,30", "too many nodes");
}

} // namespace
