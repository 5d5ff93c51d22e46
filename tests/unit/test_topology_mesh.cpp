// mesh (topologies/grid.cpp without wrap-around): Manhattan distance, dimension-order routes.
#include "topology_test_helpers.hpp"

namespace {

using namespace topology_test;

TEST(TopologyMesh, IsManhattanDistance) {
  // Node = x + 4 y.
  const Topology t = make("mesh:4x4", 16);
  EXPECT_EQ(t.distance(0, 15), 6); // (0,0) to (3,3)
  EXPECT_EQ(t.distance(5, 10), 2); // (1,1) to (2,2)
  EXPECT_EQ(t.distance(3, 12), 6); // (3,0) to (0,3)
  EXPECT_EQ(t.distance(4, 7), 3);  // (0,1) to (3,1): no wrap-around on a mesh
  EXPECT_EQ(t.diameter(), 6);
  EXPECT_EQ(make("mesh:6", 6).distance(0, 5), 5);
  EXPECT_EQ(make("mesh:3x3", 9).distances_from({4}), (std::vector<int>{2, 1, 2, 1, 0, 1, 2, 1, 2}));
  EXPECT_EQ(make("mesh:3x3", 9).distances_from({0, 8}),
            (std::vector<int>{0, 1, 2, 1, 2, 1, 2, 1, 0}));
  for (const char* text : {"mesh:4x3", "mesh:2x2x2", "mesh:3x2x2"})
    expect_consistent_distances(make(text, 1));
}

TEST(TopologyMesh, RoutesCorrectTheFirstDimensionFirst) {
  const Topology t = make("mesh:4x4", 16);
  // Ports: 2 up and 3 down in x, 4 up and 5 down in y.
  EXPECT_EQ(t.route(4, 7),
            (std::vector<Link>{injection(4), link(4, 2), link(5, 2), link(6, 2), ejection(7)}));
  EXPECT_EQ(t.route(0, 15), (std::vector<Link>{injection(0), link(0, 2), link(1, 2), link(2, 2),
                                               link(3, 4), link(7, 4), link(11, 4), ejection(15)}));
  EXPECT_EQ(t.route(15, 0), (std::vector<Link>{injection(15), link(15, 3), link(14, 3), link(13, 3),
                                               link(12, 5), link(8, 5), link(4, 5), ejection(0)}));
  expect_routes_cross_the_distance(t);
  expect_routes_cross_the_distance(make("mesh:3x2x2", 12));
}

TEST(TopologyMesh, AutoSizesAreBalanced) {
  EXPECT_EQ(sized("mesh", 16), "mesh:4x4"); // two dimensions unless told
  EXPECT_EQ(sized("mesh:2d", 12), "mesh:4x3");
  EXPECT_EQ(sized("mesh:2d", 7), "mesh:7x1"); // a prime
  EXPECT_EQ(sized("mesh:1d", 5), "mesh:5");
  EXPECT_EQ(sized("mesh:3d", 12), "mesh:3x2x2");
  EXPECT_TRUE(contains(error_of("mesh:2x2", 5), "has 4 nodes"));
  EXPECT_EQ(make("mesh:4x4", 16).describe(), "mesh 4x4 (16 nodes, diameter 6 links)");
  EXPECT_EQ(make("mesh:3d", 12).describe(), "mesh 3x2x2 (12 nodes, diameter 4 links)");
}

TEST(TopologyMesh, TextForms) {
  for (const char* text : {"mesh:1d", "mesh:2d", "mesh:3d", "mesh:8", "mesh:8x4", "mesh:4x2x2"})
    expect_reads_back(text);
  EXPECT_EQ(mpisim::parse_topology("mesh", "test"), mpisim::parse_topology("mesh:2d", "test"));
  const std::string extents = "give 1 to 3 extents such as 8x8, or 1d, 2d, 3d";
  for (const char* text : {"mesh:4d", "mesh:0d", "mesh:4x0", "mesh:4x4x4x4", "mesh:", "mesh:4x"})
    expect_rejected(text, extents);
  expect_rejected("mesh:8192x8192", "too many nodes");
  expect_rejected("mesh:16777216x16777216x16777216", "too many nodes");
}

} // namespace
