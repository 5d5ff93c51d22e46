// torus (topologies/grid.cpp with wrap-around): the shorter way round in every dimension.
#include "topology_test_helpers.hpp"

namespace {

using namespace topology_test;

TEST(TopologyTorus, WrapsAround) {
  const Topology t = make("torus:4x4", 16);
  EXPECT_EQ(t.distance(0, 15), 2); // (0,0) to (3,3): one step back in each dimension
  EXPECT_EQ(t.distance(0, 10), 4); // (0,0) to (2,2): two steps either way, twice
  EXPECT_EQ(t.distance(4, 7), 1);  // (0,1) to (3,1)
  EXPECT_EQ(t.diameter(), 4);
  EXPECT_EQ(t.distances_from({0}),
            (std::vector<int>{0, 1, 2, 1, 1, 2, 3, 2, 2, 3, 4, 3, 1, 2, 3, 2}));
  const Topology cube = make("torus:4x4x4", 64);
  EXPECT_EQ(cube.distance(0, 63), 3); // (0,0,0) to (3,3,3)
  EXPECT_EQ(cube.distance(0, 42), 6); // 42 = 2 + 4 * (2 + 4 * 2): (2,2,2)
  EXPECT_EQ(cube.diameter(), 6);
  for (const char* text : {"torus:4x3", "torus:5x2", "torus:3x2x2"})
    expect_consistent_distances(make(text, 1));
}

TEST(TopologyTorus, RoutesCorrectTheFirstDimensionFirstTheShorterWay) {
  const Topology t = make("torus:4x4", 16);
  // 0 -> 15: one step back in x (0 to 3), then one step back in y (3 to 15): the second link
  // leaves node 3, as dimension order says, not node 12.
  EXPECT_EQ(t.route(0, 15),
            (std::vector<Link>{injection(0), link(0, 3), link(3, 5), ejection(15)}));
  // Halfway round in both dimensions: upwards.
  EXPECT_EQ(t.route(0, 10), (std::vector<Link>{injection(0), link(0, 2), link(1, 2), link(2, 4),
                                               link(6, 4), ejection(10)}));
  EXPECT_EQ(t.route(4, 7), (std::vector<Link>{injection(4), link(4, 3), ejection(7)}));
  expect_routes_cross_the_distance(t);
  expect_routes_cross_the_distance(make("torus:3x2x2", 12));
}

TEST(TopologyTorus, AutoSizesAreBalanced) {
  EXPECT_EQ(sized("torus", 16), "torus:4x4");
  EXPECT_EQ(sized("torus:3d", 64), "torus:4x4x4");
  EXPECT_EQ(sized("torus:1d", 5), "torus:5");
  EXPECT_EQ(sized("torus:3d", 100), "torus:5x5x4");
  EXPECT_TRUE(contains(error_of("torus:2x2", 5), "test: topology torus:2x2 has 4 nodes"));
  EXPECT_EQ(make("torus:4x4x4", 64).describe(), "torus 4x4x4 (64 nodes, diameter 6 links)");
  EXPECT_EQ(make("torus:1d", 5).describe(), "torus 5 (5 nodes, diameter 2 links)");
}

TEST(TopologyTorus, TextForms) {
  for (const char* text : {"torus:1d", "torus:3d", "torus:4x4x2", "torus:16"})
    expect_reads_back(text);
  EXPECT_EQ(mpisim::format_topology(mpisim::parse_topology("torus", "test")), "torus:2d");
  for (const char* text : {"torus:4x4x4x4", "torus:4x0", "torus:x"})
    expect_rejected(text, "give 1 to 3 extents such as 8x8, or 1d, 2d, 3d");
}

} // namespace
