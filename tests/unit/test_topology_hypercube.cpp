// hypercube (topologies/hypercube.cpp): one link per differing bit, lowest bit first.
#include "topology_test_helpers.hpp"

namespace {

using namespace topology_test;

TEST(TopologyHypercube, CountsDifferingBits) {
  const Topology t = make("hypercube:4", 16);
  EXPECT_EQ(t.distance(0, 15), 4);
  EXPECT_EQ(t.distance(5, 10), 4); // 0101 and 1010
  EXPECT_EQ(t.distance(3, 5), 2);  // 011 and 101
  EXPECT_EQ(t.distance(8, 9), 1);
  EXPECT_EQ(t.diameter(), 4);
  EXPECT_EQ(make("hypercube:3", 8).distances_from({0}), (std::vector<int>{0, 1, 1, 2, 1, 2, 2, 3}));
  EXPECT_EQ(make("hypercube:3", 8).distances_from({0, 7}),
            (std::vector<int>{0, 1, 1, 1, 1, 1, 1, 0}));
  expect_consistent_distances(t);
}

TEST(TopologyHypercube, RoutesCorrectTheLowestBitFirst) {
  const Topology t = make("hypercube:4", 16);
  // Port 2 + bit leaves a node along that bit: 0101 -> 0100 -> 0110 -> 0010 -> 1010.
  EXPECT_EQ(t.route(5, 10), (std::vector<Link>{injection(5), link(5, 2), link(4, 3), link(6, 4),
                                               link(2, 5), ejection(10)}));
  EXPECT_EQ(t.route(8, 9), (std::vector<Link>{injection(8), link(8, 2), ejection(9)}));
  expect_routes_cross_the_distance(t);
}

TEST(TopologyHypercube, SizeIsThePowerOfTwoThatHoldsTheRanks) {
  EXPECT_EQ(make("hypercube", 10).nodes(), 16);
  EXPECT_EQ(sized("hypercube", 10), "hypercube:4");
  EXPECT_EQ(make("hypercube", 1).nodes(), 1);
  EXPECT_EQ(make("hypercube:5", 3).nodes(), 32);
  EXPECT_TRUE(contains(error_of("hypercube:2", 5), "has 4 nodes, but the ranks need 5"));
  EXPECT_EQ(make("hypercube:4", 16).describe(),
            "hypercube of dimension 4 (16 nodes, diameter 4 links)");
  EXPECT_EQ(make("hypercube", 1).describe(),
            "hypercube of dimension 0 (1 nodes, diameter 0 links)");
}

TEST(TopologyHypercube, TextForms) {
  expect_reads_back("hypercube");
  expect_reads_back("hypercube:5");
  for (const char* text : {"hypercube:0", "hypercube:25", "hypercube:x"})
    expect_rejected(text, "the dimension must be 1 to 24");
}

} // namespace
