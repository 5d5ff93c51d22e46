// ring (topologies/ring.cpp): the shorter way round.
#include "topology_test_helpers.hpp"

namespace {

using namespace topology_test;

TEST(TopologyRing, GoesTheShorterWay) {
  const Topology t = make("ring:8", 8);
  EXPECT_EQ(t.distance(0, 3), 3);
  EXPECT_EQ(t.distance(0, 5), 3); // 0-7-6-5
  EXPECT_EQ(t.distance(0, 4), 4);
  EXPECT_EQ(t.distance(1, 7), 2); // 1-0-7
  EXPECT_EQ(t.diameter(), 4);
  EXPECT_EQ(t.distances_from({0, 4}), (std::vector<int>{0, 1, 2, 1, 0, 1, 2, 1}));
  expect_consistent_distances(t);
  expect_consistent_distances(make("ring:7", 7));
}

TEST(TopologyRing, RoutesTakeTheLinksOfTheShorterWay) {
  const Topology t = make("ring:8", 8);
  // Port 2 leaves a node upwards (to node + 1), port 3 downwards.
  EXPECT_EQ(t.route(0, 2), (std::vector<Link>{injection(0), link(0, 2), link(1, 2), ejection(2)}));
  EXPECT_EQ(t.route(0, 6), (std::vector<Link>{injection(0), link(0, 3), link(7, 3), ejection(6)}));
  // Halfway round: upwards.
  EXPECT_EQ(t.route(0, 4), (std::vector<Link>{injection(0), link(0, 2), link(1, 2), link(2, 2),
                                              link(3, 2), ejection(4)}));
  // 0 -> 2 and 1 -> 3 share exactly the link 1 -> 2.
  EXPECT_EQ(t.route(1, 3), (std::vector<Link>{injection(1), link(1, 2), link(2, 2), ejection(3)}));
  expect_routes_cross_the_distance(t);
}

TEST(TopologyRing, SizeFollowsTheRanksOrIsFixed) {
  EXPECT_EQ(sized("ring", 5), "ring:5");
  EXPECT_EQ(make("ring:16", 10).nodes(), 16); // larger than needed is fine
  EXPECT_EQ(error_of("ring:4", 10),
            "test: topology ring:4 has 4 nodes, but the ranks need 10; give a larger size or "
            "leave the size out (ring) so that it follows the ranks");
  EXPECT_EQ(make("ring:8", 8).describe(), "ring (8 nodes, diameter 4 links)");
  EXPECT_EQ(make("ring", 5).describe(), "ring (5 nodes, diameter 2 links)");
}

TEST(TopologyRing, TextForms) {
  expect_reads_back("ring");
  expect_reads_back("ring:12");
  expect_rejected("ring:-3", "bad node count");
  expect_rejected("ring:x", "bad node count");
  expect_rejected("ring:0", "bad node count");
}

} // namespace
