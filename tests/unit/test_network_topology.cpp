// What every topology shares (network_topology.cpp, topologies/topology_type.cpp): the registry
// by name, the text forms, sizing. Each topology has its own test_topology_<name>.cpp.
#include "topology_test_helpers.hpp"

#include "machine.hpp"
#include "topologies/topology_type.hpp"

namespace {

using namespace topology_test;

TEST(TopologyRegistry, HelpTextListsEveryTopologyInOrder) {
  EXPECT_STREQ(mpisim::topology_syntax(),
               "fully-connected[:N], ring[:N], mesh[:AxB[xC] or :1d/:2d/:3d], torus[:AxB[xC] or "
               ":1d/:2d/:3d], hypercube[:D], fat-tree:K[,N] (K-ary N-tree), multistage:K[,S] "
               "(radix K, S stages); a missing size is as large as the ranks need");
  std::vector<std::string> names;
  for (const mpisim::TopologyType* type : mpisim::topology_types()) {
    names.emplace_back(type->name);
    EXPECT_EQ(mpisim::find_topology_type(type->name), type);
    EXPECT_EQ(type->syntax.substr(0, type->name.size()), type->name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"fully-connected", "ring", "mesh", "torus",
                                             "hypercube", "fat-tree", "multistage"}));
  EXPECT_EQ(mpisim::find_topology_type("blob"), nullptr);
}

TEST(TopologyRegistry, UnknownKindsListTheForms) {
  EXPECT_EQ(error_of("blob"), std::string("test=blob is not a valid topology: unknown kind; "
                                          "allowed: ") +
                                  mpisim::topology_syntax());
  expect_rejected("torus4x4", "unknown kind");
  expect_rejected("", "unknown kind");
  EXPECT_THROW(Topology(mpisim::TopologySpec{.kind = "blob", .size = ""}, 4, "test"),
               mpisim::ConfigError);
  EXPECT_THROW(Topology(mpisim::TopologySpec{.kind = "ring", .size = "x"}, 4, "test"),
               mpisim::ConfigError);
}

TEST(TopologyRegistry, DefaultIsFullyConnected) {
  EXPECT_EQ(mpisim::format_topology(mpisim::TopologySpec{}), "fully-connected");
  EXPECT_EQ(mpisim::format_topology(mpisim::MachineParams{}.topology), "fully-connected");
}

TEST(TopologyRegistry, SizedSpecsReadBackToTheSameTopology) {
  for (const char* text : {"fully-connected", "ring", "mesh:2d", "torus:3d", "hypercube",
                           "fat-tree:3", "multistage:2"}) {
    const Topology t = make(text, 20);
    const Topology again = make(mpisim::format_topology(t.spec()), 20);
    EXPECT_EQ(again.describe(), t.describe()) << text;
    EXPECT_EQ(again.spec(), t.spec()) << text;
  }
}

TEST(TopologyRegistry, ZeroRanksNeedOneNode) {
  EXPECT_EQ(make("ring", 0).nodes(), 1);
  EXPECT_EQ(make("ring", 0).diameter(), 0);
  EXPECT_EQ(make("ring", 1).distances_from({}),
            (std::vector<int>{mpisim::NetworkTopology::kUnreached}));
}

} // namespace
