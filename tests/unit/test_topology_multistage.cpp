// multistage (topologies/multistage.cpp): every message crosses every stage, non-blocking.
#include "topology_test_helpers.hpp"

namespace {

using namespace topology_test;

TEST(TopologyMultistage, CrossesEveryStage) {
  EXPECT_EQ(make("multistage:4", 16).distance(0, 1), 3); // two stages: three links
  EXPECT_EQ(make("multistage:4", 16).distance(0, 15), 3);
  EXPECT_EQ(make("multistage:4", 16).diameter(), 3);
  EXPECT_EQ(make("multistage:4", 64).distance(7, 8), 4);  // three stages
  EXPECT_EQ(make("multistage:2,3", 5).distance(0, 4), 4); // fixed at three stages (8 nodes)
  EXPECT_EQ(make("multistage:2", 4).distances_from({1}), (std::vector<int>{3, 0, 3, 3}));
  expect_consistent_distances(make("multistage:2,3", 8));
}

TEST(TopologyMultistage, RoutesHoldOnlyInjectionAndEjection) {
  EXPECT_EQ(make("multistage:4", 16).route(0, 15), (std::vector<Link>{injection(0), ejection(15)}));
}

TEST(TopologyMultistage, StagesFollowTheRanksOrAreFixed) {
  EXPECT_EQ(make("multistage:2,3", 5).nodes(), 8);
  EXPECT_EQ(sized("multistage:4", 17), "multistage:4,3");
  EXPECT_TRUE(contains(error_of("multistage:2,2", 5), "has 4 nodes, but the ranks need 5"));
  EXPECT_EQ(make("multistage:4", 16).describe(),
            "multistage (2 stages of radix-4 switches) (16 nodes, diameter 3 links)");
}

TEST(TopologyMultistage, TextForms) {
  expect_reads_back("multistage:8");
  expect_reads_back("multistage:4,2");
  for (const char* text : {"multistage", "multistage:1", "multistage:4,2,1"})
    expect_rejected(text, "give the switch arity K >= 2, and optionally the levels");
  expect_rejected("multistage:4,13", "too many nodes");
}

} // namespace
