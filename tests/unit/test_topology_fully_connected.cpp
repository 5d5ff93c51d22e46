// fully-connected (topologies/fully_connected.cpp): one link between any two nodes.
#include "topology_test_helpers.hpp"

namespace {

using namespace topology_test;

TEST(TopologyFullyConnected, EveryTwoNodesAreOneLinkApart) {
  const Topology t = make("fully-connected", 5);
  EXPECT_EQ(t.nodes(), 5);
  EXPECT_EQ(t.distance(0, 4), 1);
  EXPECT_EQ(t.distance(3, 3), 0);
  EXPECT_EQ(t.diameter(), 1);
  EXPECT_EQ(t.distances_from({2}), (std::vector<int>{1, 1, 0, 1, 1}));
  EXPECT_EQ(t.distances_from({0, 4}), (std::vector<int>{0, 1, 1, 1, 0}));
  expect_consistent_distances(t);
}

TEST(TopologyFullyConnected, RoutesHoldOnlyInjectionAndEjection) {
  const Topology t = make("fully-connected", 5);
  EXPECT_EQ(t.route(0, 4), (std::vector<Link>{injection(0), ejection(4)}));
  EXPECT_EQ(t.route(3, 1), (std::vector<Link>{injection(3), ejection(1)}));
  EXPECT_TRUE(t.route(2, 2).empty());
}

TEST(TopologyFullyConnected, SizeFollowsTheRanksOrIsFixed) {
  EXPECT_EQ(sized("fully-connected", 5), "fully-connected:5");
  EXPECT_EQ(make("fully-connected:9", 4).nodes(), 9);
  EXPECT_TRUE(contains(error_of("fully-connected:2", 3), "has 2 nodes, but the ranks need 3"));
  EXPECT_EQ(make("fully-connected", 5).describe(), "fully-connected (5 nodes, diameter 1 links)");
  EXPECT_EQ(make("fully-connected", 1).describe(), "fully-connected (1 nodes, diameter 0 links)");
}

TEST(TopologyFullyConnected, TextForms) {
  expect_reads_back("fully-connected");
  expect_reads_back("fully-connected:9");
  expect_rejected("fully-connected:0", "bad node count");
  expect_rejected("fully-connected:x", "bad node count");
}

} // namespace
