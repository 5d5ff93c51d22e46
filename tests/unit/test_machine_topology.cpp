// Hop counts of every topology against distances worked out by hand from the topology's routing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config.hpp"
#include "topology.hpp"

namespace {

using mpisim::ConfigError;
using mpisim::Topology;

Topology make(const std::string& text, int nodes_needed) {
  return Topology(mpisim::parse_topology(text, "test"), nodes_needed, "test");
}

std::string error_of(const std::string& text, int nodes_needed) {
  try {
    make(text, nodes_needed);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Topology, FullyConnectedIsOneLinkApart) {
  const Topology t = make("fully-connected", 5);
  EXPECT_EQ(t.nodes(), 5);
  EXPECT_EQ(t.distance(0, 4), 1);
  EXPECT_EQ(t.distance(3, 3), 0);
  EXPECT_EQ(t.diameter(), 1);
}

TEST(Topology, RingGoesTheShorterWay) {
  const Topology t = make("ring:8", 8);
  EXPECT_EQ(t.distance(0, 3), 3);
  EXPECT_EQ(t.distance(0, 5), 3); // 0-7-6-5
  EXPECT_EQ(t.distance(0, 4), 4);
  EXPECT_EQ(t.distance(1, 7), 2); // 1-0-7
  EXPECT_EQ(t.diameter(), 4);
}

TEST(Topology, MeshIsManhattanDistance) {
  // Node = x + 4 y.
  const Topology t = make("mesh:4x4", 16);
  EXPECT_EQ(t.distance(0, 15), 6); // (0,0) to (3,3)
  EXPECT_EQ(t.distance(5, 10), 2); // (1,1) to (2,2)
  EXPECT_EQ(t.distance(3, 12), 6); // (3,0) to (0,3)
  EXPECT_EQ(t.distance(4, 7), 3);  // (0,1) to (3,1): no wrap-around on a mesh
  EXPECT_EQ(t.diameter(), 6);
  const Topology line = make("mesh:6", 6);
  EXPECT_EQ(line.distance(0, 5), 5);
}

TEST(Topology, TorusWrapsAround) {
  const Topology t = make("torus:4x4", 16);
  EXPECT_EQ(t.distance(0, 15), 2); // (0,0) to (3,3): one step back in each dimension
  EXPECT_EQ(t.distance(0, 10), 4); // (0,0) to (2,2): two steps either way, twice
  EXPECT_EQ(t.distance(4, 7), 1);  // (0,1) to (3,1)
  EXPECT_EQ(t.diameter(), 4);
  const Topology cube = make("torus:4x4x4", 64);
  EXPECT_EQ(cube.distance(0, 63), 3); // (0,0,0) to (3,3,3)
  EXPECT_EQ(cube.distance(0, 42), 6); // 42 = 2 + 4 * (2 + 4 * 2): (2,2,2)
  EXPECT_EQ(cube.diameter(), 6);
}

TEST(Topology, AutoSizedMeshAndTorusAreBalanced) {
  EXPECT_EQ(make("torus:3d", 64).spec().dims, (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(make("mesh:2d", 12).spec().dims, (std::vector<int>{4, 3}));
  EXPECT_EQ(make("mesh", 16).spec().dims, (std::vector<int>{4, 4}));
  EXPECT_EQ(make("torus:1d", 5).spec().dims, (std::vector<int>{5}));
  EXPECT_EQ(make("mesh:2d", 7).nodes(), 7); // a prime: 7 x 1
}

TEST(Topology, HypercubeCountsDifferingBits) {
  const Topology t = make("hypercube:4", 16);
  EXPECT_EQ(t.distance(0, 15), 4);
  EXPECT_EQ(t.distance(5, 10), 4); // 0101 and 1010
  EXPECT_EQ(t.distance(3, 5), 2);  // 011 and 101
  EXPECT_EQ(t.distance(8, 9), 1);
  EXPECT_EQ(t.diameter(), 4);
  EXPECT_EQ(make("hypercube", 10).nodes(), 16); // the smallest cube that holds 10 nodes
  EXPECT_EQ(make("hypercube", 1).nodes(), 1);
}

TEST(Topology, FatTreeGoesUpToTheNearestCommonSwitch) {
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
  EXPECT_EQ(make("fat-tree:4", 17).nodes(), 64); // three levels hold 17 nodes
}

TEST(Topology, MultistageCrossesEveryStage) {
  EXPECT_EQ(make("multistage:4", 16).distance(0, 1), 3); // two stages: three links
  EXPECT_EQ(make("multistage:4", 16).distance(0, 15), 3);
  EXPECT_EQ(make("multistage:4", 64).distance(7, 8), 4);  // three stages
  EXPECT_EQ(make("multistage:2,3", 5).distance(0, 4), 4); // fixed at three stages (8 nodes)
  EXPECT_EQ(make("multistage:2,3", 5).nodes(), 8);
}

TEST(Topology, FixedSizeMustHoldTheNodes) {
  const std::string message = error_of("ring:4", 10);
  EXPECT_TRUE(contains(message, "topology ring:4 has 4 nodes, but the ranks need 10")) << message;
  EXPECT_TRUE(contains(error_of("torus:2x2", 5), "has 4 nodes")) << error_of("torus:2x2", 5);
  EXPECT_TRUE(contains(error_of("hypercube:2", 5), "has 4 nodes"));
  EXPECT_TRUE(contains(error_of("fat-tree:2,2", 5), "has 4 nodes"));
  EXPECT_EQ(make("ring:16", 10).nodes(), 16); // larger than needed is fine
}

TEST(Topology, BadSpecificationsListTheForms) {
  for (const char* bad : {"blob", "torus:4x4x4x4", "torus:4x0", "fat-tree", "fat-tree:1",
                          "multistage:4,2,1", "hypercube:0", "ring:-3", "ring:x", "mesh:4d"}) {
    const std::string message = error_of(bad, 4);
    EXPECT_TRUE(contains(message, std::string("test=") + bad)) << message;
    EXPECT_TRUE(contains(message, "fully-connected[:N], ring[:N]")) << message;
  }
}

TEST(Topology, TextFormReadsBack) {
  for (const char* text : {"fully-connected", "fully-connected:9", "ring", "ring:12", "mesh:2d",
                           "mesh:8x4", "torus:3d", "torus:4x4x2", "hypercube", "hypercube:5",
                           "fat-tree:4", "fat-tree:4,3", "multistage:8", "multistage:4,2"}) {
    const mpisim::TopologySpec spec = mpisim::parse_topology(text, "test");
    EXPECT_EQ(mpisim::format_topology(spec), text);
    EXPECT_EQ(mpisim::parse_topology(mpisim::format_topology(spec), "test"), spec);
  }
}

TEST(Topology, DistancesFromASetOfNodes) {
  EXPECT_EQ(make("ring:8", 8).distances_from({0, 4}), (std::vector<int>{0, 1, 2, 1, 0, 1, 2, 1}));
  EXPECT_EQ(make("fat-tree:2,3", 8).distances_from({0}),
            (std::vector<int>{0, 2, 4, 4, 6, 6, 6, 6}));
  EXPECT_EQ(make("mesh:3x3", 9).distances_from({4}), (std::vector<int>{2, 1, 2, 1, 0, 1, 2, 1, 2}));
  EXPECT_EQ(make("multistage:2", 4).distances_from({1}), (std::vector<int>{3, 0, 3, 3}));
  // Every single-source answer agrees with distance().
  for (const char* text : {"torus:4x3", "hypercube:3", "fat-tree:3,2", "mesh:2x2x2"}) {
    const Topology t = make(text, 8);
    for (int a = 0; a < t.nodes(); ++a) {
      const std::vector<int> d = t.distances_from({a});
      for (int b = 0; b < t.nodes(); ++b)
        EXPECT_EQ(d[static_cast<std::size_t>(b)], t.distance(a, b)) << text << " " << a << "-" << b;
    }
  }
}

TEST(Topology, RoutesFollowDimensionOrder) {
  // A route is injection, the links of the path, ejection: distance + 2 links.
  const Topology torus = make("torus:4x4", 16);
  for (int a = 0; a < 16; ++a)
    for (int b = 0; b < 16; ++b)
      EXPECT_EQ(torus.route(a, b).size(), a == b ? 0u : torus.distance(a, b) + 2u);
  // 0 -> 15: one step back in x (0 to 3), then one step back in y (3 to 15): the second link
  // leaves node 3, as dimension order says, not node 12.
  const auto r = torus.route(0, 15);
  const auto via_3 = torus.route(3, 15);
  ASSERT_EQ(r.size(), 4u);
  ASSERT_EQ(via_3.size(), 3u);
  EXPECT_EQ(r[2], via_3[1]);
  // On a ring, 0 -> 2 and 1 -> 3 share exactly the link 1 -> 2.
  const Topology ring = make("ring:8", 8);
  const auto a = ring.route(0, 2);
  const auto b = ring.route(1, 3);
  int shared = 0;
  for (auto x : a)
    for (auto y : b)
      shared += x == y;
  EXPECT_EQ(shared, 1);
  EXPECT_EQ(a[2], b[1]);
  // A fat tree is taken as non-blocking: only the injection and ejection links.
  EXPECT_EQ(make("fat-tree:2,3", 8).route(0, 7).size(), 2u);
}

} // namespace
