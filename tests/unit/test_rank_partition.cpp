// MPISIM_MAP=auto: reading a recorded communication matrix and partitioning ranks among host
// processes with few messages between them, balanced and the same on every host process.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "comm_graph.hpp"
#include "comm_matrix.hpp"
#include "config.hpp"
#include "rank_map.hpp"
#include "rank_partition.hpp"
#include "scratch_dir.hpp"

namespace {

using mpisim::CommGraph;
using mpisim::ConfigError;

/// Rank i exchanges `messages` with i +/- hosts (mod ranks), and nothing else: the natural
/// groups are the residues mod hosts, which block cuts and cyclic does not.
CommGraph residue_rings(int ranks, int hosts, std::uint64_t messages = 10) {
  std::vector<CommGraph::Flow> flows;
  for (int r = 0; r < ranks; ++r) {
    flows.push_back({r, (r + hosts) % ranks, messages});
    flows.push_back({r, (r + ranks - hosts) % ranks, messages});
  }
  return CommGraph(ranks, flows);
}

/// A sparse random graph: each rank sends to a few ranks, near ones more often than far ones.
CommGraph random_graph(int ranks, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<CommGraph::Flow> flows;
  for (int r = 0; r < ranks; ++r)
    for (int k = 0; k < 4; ++k) {
      const int span = k < 2 ? 8 : ranks;
      const int to = (r + 1 + static_cast<int>(rng() % static_cast<unsigned>(span))) % ranks;
      flows.push_back({r, to, 1 + rng() % 100});
    }
  return CommGraph(ranks, flows);
}

std::vector<int> sizes(const std::vector<int>& host_of, int hosts) {
  std::vector<int> n(static_cast<std::size_t>(hosts), 0);
  for (int h : host_of)
    ++n[static_cast<std::size_t>(h)];
  return n;
}

std::string scratch_dir(const std::string& name) {
  return test::scratch_dir("partition", name);
}

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

/// Success when reading `path` for `ranks` ranks fails with a message holding every one of
/// `parts` (an empty list: when it reads).
testing::AssertionResult read_fails_with(const std::string& path, int ranks,
                                         std::initializer_list<std::string> parts) {
  std::string message;
  try {
    mpisim::read_comm_graph(path, ranks, "MPISIM_MAP=auto:" + path);
  } catch (const ConfigError& e) {
    message = e.what();
  }
  if (message.empty() != (parts.size() == 0))
    return testing::AssertionFailure() << "error: \"" << message << "\"";
  for (const std::string& part : parts)
    if (message.find(part) == std::string::npos)
      return testing::AssertionFailure() << "\"" << part << "\" not in \"" << message << "\"";
  return testing::AssertionSuccess();
}

TEST(CommGraph, PairsAddBothDirectionsAndDropSelfMessages) {
  const CommGraph g(4, {{0, 1, 2}, {1, 0, 3}, {2, 2, 50}, {3, 1, 1}, {1, 3, 4}});
  EXPECT_EQ(std::vector<int>(g.neighbours(1).begin(), g.neighbours(1).end()),
            (std::vector<int>{0, 3}));
  EXPECT_EQ(g.weights(1)[0], 5);
  EXPECT_EQ(g.weights(1)[1], 5);
  EXPECT_TRUE(g.neighbours(2).empty());
  EXPECT_EQ(g.messages(), 10u);
  EXPECT_EQ(g.cut({0, 0, 1, 1}), 5u);
}

TEST(RankPartition, ResidueGroupsGetNoCutWhereBlockCutsMany) {
  for (const auto& [ranks, hosts] : {std::pair{16, 2}, {64, 4}, {60, 3}, {48, 8}}) {
    const CommGraph g = residue_rings(ranks, hosts);
    const auto block = mpisim::block_hosts(ranks, hosts);
    const auto host_of = mpisim::partition_ranks(g, hosts);
    EXPECT_GT(g.cut(block), 0u) << ranks << " ranks, " << hosts << " hosts";
    EXPECT_EQ(g.cut(host_of), 0u) << ranks << " ranks, " << hosts << " hosts";
    EXPECT_EQ(sizes(host_of, hosts), sizes(block, hosts));
  }
}

TEST(RankPartition, EveryHostKeepsTheBlockRankCount) {
  for (int hosts : {2, 3, 5, 7, 16}) {
    const CommGraph g = random_graph(1001, static_cast<unsigned>(hosts));
    const auto block = mpisim::block_hosts(1001, hosts);
    const auto host_of = mpisim::partition_ranks(g, hosts);
    EXPECT_EQ(sizes(host_of, hosts), sizes(block, hosts)) << hosts << " hosts";
    EXPECT_LE(g.cut(host_of), g.cut(block)) << hosts << " hosts";
  }
}

TEST(RankPartition, NeverWorseThanBlockWhereBlockIsBest) {
  // A 1-D chain: contiguous ranges are the best cut (one edge per boundary).
  std::vector<CommGraph::Flow> flows;
  for (int r = 0; r + 1 < 100; ++r)
    flows.push_back({r, r + 1, 5});
  const CommGraph g(100, flows);
  EXPECT_EQ(g.cut(mpisim::partition_ranks(g, 4)), 15u);
}

TEST(RankPartition, MoreHostsThanRanksAndOneHost) {
  const CommGraph g = residue_rings(6, 2);
  EXPECT_EQ(sizes(mpisim::partition_ranks(g, 8), 8), sizes(mpisim::block_hosts(6, 8), 8));
  EXPECT_EQ(mpisim::partition_ranks(g, 1), std::vector<int>(6, 0));
}

TEST(RankPartition, DeterministicWhateverTheOrderOfTheMatrix) {
  std::vector<CommGraph::Flow> flows;
  std::mt19937 rng(7);
  for (int i = 0; i < 5000; ++i)
    flows.push_back({static_cast<int>(rng() % 500), static_cast<int>(rng() % 500), rng() % 9});
  const auto first = mpisim::partition_ranks(CommGraph(500, flows), 3);
  std::shuffle(flows.begin(), flows.end(), rng);
  EXPECT_EQ(mpisim::partition_ranks(CommGraph(500, flows), 3), first);
  EXPECT_EQ(mpisim::partition_ranks(CommGraph(500, flows), 3), first);
}

// 100 000 ranks of a 2-D 5-point stencil, numbered so that block cuts most edges (rank = cell
// index multiplied by a unit mod ranks): fast, balanced, and far below block's cut.
TEST(RankPartition, HundredThousandRanksOfAShuffledStencil) {
  constexpr int kSide = 250, kRanks = 400 * kSide, kHosts = 4;
  const auto rank_of = [](long cell) { return static_cast<int>(cell * 7919 % kRanks); };
  std::vector<CommGraph::Flow> flows;
  for (int y = 0; y < 400; ++y)
    for (int x = 0; x < kSide; ++x) {
      const long cell = static_cast<long>(y) * kSide + x;
      if (x + 1 < kSide) flows.push_back({rank_of(cell), rank_of(cell + 1), 20});
      if (y + 1 < 400) flows.push_back({rank_of(cell), rank_of(cell + kSide), 20});
    }
  const std::string dir = scratch_dir("large");
  {
    std::ofstream out(dir + "/m.csv");
    out << "src,dst,messages,bytes\n";
    for (const auto& f : flows)
      out << f.src << ',' << f.dst << ',' << f.messages << ",0\n";
    out << kRanks - 1 << ',' << kRanks - 1 << ",0,0\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const CommGraph g = mpisim::read_comm_graph(dir + "/m.csv", kRanks, "test");
  const auto read = std::chrono::steady_clock::now();
  const auto host_of = mpisim::partition_ranks(g, kHosts);
  const auto done = std::chrono::steady_clock::now();
  std::filesystem::remove_all(dir);
  std::printf("%d ranks (%llu messages): matrix read in %.3f s, partitioned among %d hosts in "
              "%.3f s: cut %llu, block %llu\n",
              kRanks, static_cast<unsigned long long>(g.messages()),
              std::chrono::duration<double>(read - start).count(), kHosts,
              std::chrono::duration<double>(done - read).count(),
              static_cast<unsigned long long>(g.cut(host_of)),
              static_cast<unsigned long long>(g.cut(mpisim::block_hosts(kRanks, kHosts))));
  EXPECT_EQ(sizes(host_of, kHosts), sizes(mpisim::block_hosts(kRanks, kHosts), kHosts));
  EXPECT_LT(g.cut(host_of) * 10, g.cut(mpisim::block_hosts(kRanks, kHosts)));
}

TEST(CommMatrixFile, WrittenMatrixReadsBack) {
  const std::string dir = scratch_dir("roundtrip");
  mpisim::CommMatrix m;
  m.add(0, 2, 100);
  m.add(2, 0, 8);
  m.add(2, 0, 8);
  m.write_csv(dir + "/m.csv", 5);
  const CommGraph g = mpisim::read_comm_graph(dir + "/m.csv", 5, "test");
  EXPECT_EQ(g.ranks(), 5);
  EXPECT_EQ(g.messages(), 3u);
  EXPECT_TRUE(
      read_fails_with(dir + "/m.csv", 6,
                      {"the communication matrix " + dir +
                       "/m.csv was recorded on 5 ranks but this run has 6; run with -np 5"}));
  std::filesystem::remove_all(dir);
}

TEST(CommMatrixFile, MalformedFilesAreNamedWithTheFix) {
  const std::string dir = scratch_dir("malformed");
  const std::string header = "src,dst,messages,bytes\n";
  const std::string fix = "record it again with a run of the same program on 4 ranks with "
                          "MPISIM_COMM_MATRIX=";
  EXPECT_TRUE(read_fails_with(
      dir + "/none.csv", 4,
      {"MPISIM_MAP=auto:" + dir + "/none.csv: cannot read the communication matrix"}));
  EXPECT_TRUE(read_fails_with(write(dir, "a.csv", "rank,host\n0,1\n"), 4,
                              {"is not a communication matrix", fix}));
  EXPECT_TRUE(read_fails_with(
      write(dir, "b.csv", header + "0,1,2,3\n1,x,2,3\n"), 4,
      {dir + "/b.csv:3: \"1,x,2,3\" is not a line of a communication matrix", fix}));
  EXPECT_TRUE(
      read_fails_with(write(dir, "c.csv", header + "0,1,-2,3\n3,3,0,0\n"), 4, {"c.csv:2:"}));
  EXPECT_TRUE(read_fails_with(write(dir, "d.csv", header + "0,1,2,3\n"), 4,
                              {"does not give its rank count", fix}));
  EXPECT_TRUE(read_fails_with(write(dir, "e.csv", ""), 4, {"is empty"}));
  EXPECT_TRUE(read_fails_with(write(dir, "ok.csv", header + "3,3,0,0\r\n0,1,2,3\r\n"), 4, {}));
  std::filesystem::remove_all(dir);
}

} // namespace
