// The network model: per-pair transfer times on topologies, ranks sharing a node, lookahead, and
// simulated messages that take those times.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "link_costs.hpp"
#include "sim_harness.hpp"

namespace {

using mpisim::LinkCosts;
using mpisim::MachineParams;
using mpisim::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000; // 1 GB/s
constexpr SimTime kHop = 100'000;    // per-link header time of the topologies below

/// The harness's round-number machine on `topology`, 100 ns per link.
MachineParams on(const char* topology, int ranks_per_node = 1) {
  MachineParams m = test::round_machine();
  m.topology = mpisim::parse_topology(topology, "test");
  m.ranks_per_node = ranks_per_node;
  m.hop_latency = kHop;
  return m;
}

TEST(LinkCosts, DefaultMachineIsLatencyPlusBytesOverBandwidth) {
  const LinkCosts net(test::round_machine(), 4);
  EXPECT_EQ(net.transfer(0, 3, 0), kLatency);
  EXPECT_EQ(net.transfer(2, 1, 1000), kLatency + 1000 * kPsPerByte);
  EXPECT_EQ(net.min_latency(), kLatency);
  // Without intra-node parameters, a rank sending to itself pays the network's costs too.
  EXPECT_EQ(net.transfer(1, 1, 10), kLatency + 10 * kPsPerByte);
}

TEST(LinkCosts, ClusterKeepsItsFullyConnectedTimes) {
  const LinkCosts net(mpisim::machine_preset("cluster"), 1000);
  EXPECT_EQ(net.transfer(0, 999, 4), 1'500'000 + 334); // 4 B at 12 GB/s = 333.3 ps
  EXPECT_EQ(net.min_latency(), 1'500'000);
  EXPECT_EQ(net.transfer(5, 5, 0), 100'000); // to itself: shared memory
}

TEST(LinkCosts, TopologyAddsAHeaderTimePerLink) {
  const LinkCosts ring(on("ring"), 8);
  EXPECT_EQ(ring.topology().nodes(), 8);
  EXPECT_EQ(ring.transfer(0, 3, 0), kLatency + 3 * kHop);
  EXPECT_EQ(ring.transfer(0, 5, 100), kLatency + 3 * kHop + 100 * kPsPerByte);
  EXPECT_EQ(ring.min_latency(), kLatency + kHop);
  const LinkCosts cube(on("hypercube"), 8);
  EXPECT_EQ(cube.transfer(0, 7, 0), kLatency + 3 * kHop);
  EXPECT_EQ(cube.transfer(2, 3, 0), kLatency + kHop);
}

TEST(LinkCosts, RanksOfOneNodeUseTheIntraNodeLink) {
  MachineParams m = on("ring", 4);
  m.intra_latency = 50'000;
  m.intra_bandwidth = 4e9; // 250 ps per byte
  const LinkCosts net(m, 16);
  EXPECT_EQ(net.topology().nodes(), 4);
  EXPECT_EQ(net.node_of(7), 1);
  EXPECT_EQ(net.transfer(4, 7, 1000), 50'000 + 250'000);
  EXPECT_EQ(net.transfer(3, 4, 1000), kLatency + kHop + 1000 * kPsPerByte);
  EXPECT_EQ(net.transfer(0, 15, 0), kLatency + kHop); // nodes 0 and 3 of a ring of 4
  EXPECT_EQ(net.transfer(0, 8, 0), kLatency + 2 * kHop);
  EXPECT_EQ(net.min_latency(), 50'000);
  // All ranks on one node: only the intra-node link is ever used.
  EXPECT_EQ(LinkCosts(m, 4).min_latency(), 50'000);
}

TEST(LinkCosts, ASizesCostsAreTheSameRememberedOrWorkedOut) {
  // The costs of the last sizes asked for are kept in 64 slots: ask for more sizes than that,
  // at every distance, in an order that makes them collide and replace each other.
  const LinkCosts net(on("ring"), 8);
  std::mt19937_64 random(37);
  for (int i = 0; i < 20000; ++i) {
    const auto bytes = static_cast<std::size_t>(random() % 300) * 7;
    const int src = static_cast<int>(random() % 8), dst = static_cast<int>(random() % 8);
    const int d = std::min((src - dst + 8) % 8, (dst - src + 8) % 8);
    const SimTime wire = static_cast<SimTime>(bytes) * kPsPerByte;
    ASSERT_EQ(net.transfer(src, dst, bytes), kLatency + std::max(d, 1) * kHop + wire)
        << bytes << " bytes from " << src << " to " << dst;
    ASSERT_EQ(net.injection(src, dst, bytes), src == dst ? 0 : wire);
  }
}

TEST(LinkCosts, LookaheadBetweenSetsOfRanks) {
  const LinkCosts ring(on("ring"), 8);
  // {0..3} and {4..7} touch twice: 3-4 and 7-0.
  EXPECT_EQ(ring.min_latency_between({0, 1, 2, 3}, {4, 5, 6, 7}), kLatency + kHop);
  // {0, 1} and {4, 5}: the nearest pairs are 1-4 and 0-5, three links apart.
  EXPECT_EQ(ring.min_latency_between({0, 1}, {4, 5}), kLatency + 3 * kHop);
  EXPECT_EQ(ring.min_latency_between({0}, {4}), kLatency + 4 * kHop);
  // Two ranks per node: a node split between the sets brings the intra-node link in.
  MachineParams m = on("ring", 2);
  m.intra_latency = 10'000;
  const LinkCosts pairs(m, 8);
  EXPECT_EQ(pairs.min_latency_between({0, 1, 2}, {3, 4, 5, 6, 7}), 10'000);
  EXPECT_EQ(pairs.min_latency_between({0, 1}, {4, 5}), kLatency + 2 * kHop);
  // The fat tree: 0-3 share a leaf switch (2 links), 4-7 the next one.
  const LinkCosts tree(on("fat-tree:4,2"), 16);
  EXPECT_EQ(tree.min_latency_between({0, 1}, {2, 3}), kLatency + 2 * kHop);
  EXPECT_EQ(tree.min_latency_between({0, 1, 2, 3}, {4, 5, 6, 7}), kLatency + 4 * kHop);
  EXPECT_EQ(tree.min_latency(), kLatency + 2 * kHop);
}

TEST(LinkCosts, DescribeShowsTheResolvedMachine) {
  const std::string text = LinkCosts(mpisim::machine_preset("sp2"), 16).describe();
  EXPECT_NE(text.find("multistage (2 stages of radix-4 switches) (16 nodes, diameter 3 links)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("smallest latency between two ranks (lookahead): 27.375 us"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("topology = \"multistage:4\""), std::string::npos) << text;
}

/// The simulated time rank `timed` spends in `op`, which every one of `ranks` ranks calls between
/// MPI_Init and MPI_Finalize, on `m`.
SimTime time_in(const MachineParams& m, int ranks, int timed,
                const std::function<void(int me)>& op) {
  mpisim::Config c = test::config(ranks);
  c.machine = m;
  SimTime t = -1;
  auto r = test::simulate(c, [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const long long t0 = MPISIM_Clock_ps();
    op(me);
    if (me == timed) t = MPISIM_Clock_ps() - t0;
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Finished);
  return t;
}

/// Round trip of `bytes` between ranks a and b, on `m` with `ranks` ranks.
SimTime round_trip(const MachineParams& m, int ranks, int a, int b, int bytes) {
  return time_in(m, ranks, a, [&](int me) {
    std::vector<char> buf(static_cast<std::size_t>(bytes) + 1);
    if (me == a) {
      MPI_Send(buf.data(), bytes, MPI_CHAR, b, 0, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), bytes, MPI_CHAR, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (me == b) {
      MPI_Recv(buf.data(), bytes, MPI_CHAR, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), bytes, MPI_CHAR, a, 0, MPI_COMM_WORLD);
    }
  });
}

TEST(LinkCosts, SimulatedPingPongTakesTheRoutedTime) {
  const SimTime leg = kSendOverhead + kRecvOverhead + 500 * kPsPerByte;
  EXPECT_EQ(round_trip(on("ring"), 8, 0, 3, 500), 2 * (leg + kLatency + 3 * kHop));
  EXPECT_EQ(round_trip(on("torus:4x4"), 16, 0, 10, 500), 2 * (leg + kLatency + 4 * kHop));
  EXPECT_EQ(round_trip(on("mesh:4x4"), 16, 0, 15, 500), 2 * (leg + kLatency + 6 * kHop));
  MachineParams saf = on("hypercube");
  saf.switching = mpisim::Switching::StoreAndForward; // 3 links, each the whole message
  EXPECT_EQ(round_trip(saf, 8, 1, 6, 500),
            2 * (kSendOverhead + kRecvOverhead + kLatency + 3 * 500 * kPsPerByte));
  MachineParams shared = on("ring", 2);
  shared.intra_latency = 20'000;
  shared.intra_bandwidth = 10e9; // 100 ps per byte
  EXPECT_EQ(round_trip(shared, 8, 4, 5, 500),
            2 * (kSendOverhead + kRecvOverhead + 20'000 + 500 * 100));
}

TEST(LinkCosts, SendrecvExtraIsInterpolatedBetweenItsSizes) {
  MachineParams m = test::round_machine();
  EXPECT_EQ(LinkCosts(m, 2).sendrecv_extra(1000), 0); // none given
  m.sendrecv_extra = {{0, 20'000}, {1024, 120'000}, {4096, 60'000}};
  const LinkCosts net(m, 2);
  EXPECT_EQ(net.sendrecv_extra(0), 20'000);
  EXPECT_EQ(net.sendrecv_extra(512), 70'000);
  EXPECT_EQ(net.sendrecv_extra(1024), 120'000);
  EXPECT_EQ(net.sendrecv_extra(2048), 100'000); // falling: a third of the way to 60 ns
  // Beyond the last size the last segment's line goes on, never below zero.
  EXPECT_EQ(net.sendrecv_extra(7168), 0);
  EXPECT_EQ(net.sendrecv_extra(5120), 40'000);
}

/// One MPI_Sendrecv step of `bytes` between ranks 0 and 1 (each sends to and receives from the
/// other at once), on `m`. With `nonblocking`, MPI_Isendrecv and MPI_Wait.
SimTime exchange_step(const MachineParams& m, int bytes, bool nonblocking = false) {
  return time_in(m, 2, 0, [&](int me) {
    std::vector<char> out(static_cast<std::size_t>(bytes) + 1, 'a'), in(out.size());
    if (nonblocking) {
      MPI_Request q;
      MPI_Isendrecv(out.data(), bytes, MPI_CHAR, 1 - me, 0, in.data(), bytes, MPI_CHAR, 1 - me, 0,
                    MPI_COMM_WORLD, &q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
      MPI_Sendrecv(out.data(), bytes, MPI_CHAR, 1 - me, 0, in.data(), bytes, MPI_CHAR, 1 - me, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    EXPECT_EQ(in[0], 'a');
  });
}

TEST(LinkCosts, SendrecvPaysTheMachinesExtraOnceBothAreDone) {
  // Both ranks send at once: a step is the one-way time, plus the extra at that size.
  MachineParams m = test::round_machine();
  const SimTime one_way = kSendOverhead + kLatency + 500 * kPsPerByte + kRecvOverhead;
  EXPECT_EQ(exchange_step(m, 500), one_way);
  m.sendrecv_extra = {{0, 20'000}, {1024, 120'000}};
  const SimTime extra = 20'000 + 500 * 100'000 / 1024;
  EXPECT_EQ(exchange_step(m, 500), one_way + extra);
  EXPECT_EQ(exchange_step(m, 500, true), one_way + extra);
  // A rank that sends to itself exchanges with no one.
  EXPECT_EQ(time_in(m, 1, 0,
                    [](int) {
                      char out = 'b', in = 0;
                      MPI_Sendrecv(&out, 1, MPI_CHAR, 0, 0, &in, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE);
                      EXPECT_EQ(in, 'b');
                    }),
            0);
}

TEST(LinkCosts, CollectivesPayTheExtraOncePerExchange) {
  // A small allreduce on 2^k ranks is recursive doubling: k exchanges, each an MPI_Sendrecv.
  const auto allreduce = [](const MachineParams& m, int ranks) {
    return time_in(m, ranks, 0, [ranks](int me) {
      int in = me + 1, sum = 0;
      MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      EXPECT_EQ(sum, ranks * (ranks + 1) / 2);
    });
  };
  MachineParams plain = test::round_machine();
  MachineParams extra = plain;
  extra.sendrecv_extra = {{0, 50'000}};
  EXPECT_EQ(allreduce(extra, 2) - allreduce(plain, 2), 50'000);
  EXPECT_EQ(allreduce(extra, 8) - allreduce(plain, 8), 3 * 50'000);
}

TEST(LinkCosts, RendezvousOnATopology) {
  // Request-to-send, clear-to-send and data each cross the 3 links between ranks 0 and 3.
  const SimTime path = kLatency + 3 * kHop;
  const int bytes = 100'000; // above the harness's 64 KiB eager limit
  EXPECT_EQ(round_trip(on("ring"), 8, 0, 3, bytes),
            2 * (kSendOverhead + 3 * path + bytes * kPsPerByte + kRecvOverhead));
}

} // namespace
