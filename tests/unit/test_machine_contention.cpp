// MPISIM_NETWORK=contention: messages that share a link share its bandwidth (max-min fair),
// checked against times worked out by hand, and results that do not depend on how the host
// happened to run the ranks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "flow_network.hpp"
#include "sim_harness.hpp"

namespace {

using mpisim::SimTime;
using test::clocks_of;

// The harness's round machine: o_s 100 ns, o_r 200 ns, L 1 us, 1 GB/s (1 ns per byte).
constexpr SimTime kSend = 100'000, kRecv = 200'000, kLatency = 1'000'000, kPsPerByte = 1000;

mpisim::Config contended(int ranks, const char* topology = "fully-connected") {
  mpisim::Config c = test::config(ranks);
  c.machine.network = "contention";
  c.machine.topology = mpisim::parse_topology(topology, "test");
  return c;
}

void send_bytes(int bytes, int to) {
  std::vector<char> buf(static_cast<std::size_t>(bytes));
  MPI_Send(buf.data(), bytes, MPI_CHAR, to, 0, MPI_COMM_WORLD);
}

void receive_bytes(int bytes, int from) {
  std::vector<char> buf(static_cast<std::size_t>(bytes));
  MPI_Recv(buf.data(), bytes, MPI_CHAR, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

TEST(Contention, TwoFlowsIntoOneNodeTakeTwiceAsLong) {
  // Ranks 0 and 1 each send 10 000 bytes to rank 2 at once: both cross rank 2's link, each at
  // half speed, so each takes 20 us instead of 10 us.
  const auto clocks = clocks_of(contended(3), [](int me) {
    if (me < 2) send_bytes(10'000, 2);
    if (me == 2) {
      receive_bytes(10'000, 0);
      receive_bytes(10'000, 1);
    }
  });
  const SimTime arrival = kSend + 2 * 10'000 * kPsPerByte + kLatency;
  EXPECT_EQ(clocks[2], arrival + 2 * kRecv);
  EXPECT_EQ(clocks[0], kSend); // an eager send completes at once
  const auto two_into_one = [](int me) {
    if (me < 2) send_bytes(10'000, 2);
    if (me == 2) {
      receive_bytes(10'000, 0);
      receive_bytes(10'000, 1);
    }
  };
  // Under latency each takes 10 us.
  mpisim::Config free = test::config(3);
  free.machine.network = "latency";
  EXPECT_EQ(clocks_of(free, two_into_one)[2], kSend + 10'000 * kPsPerByte + kLatency + 2 * kRecv);
  // Under nic (the default) rank 2's NIC delivers the first as if alone and the second 10 us
  // later: the last byte as late as under contention, the first one earlier.
  const SimTime first = kSend + 10'000 * kPsPerByte + kLatency;
  EXPECT_EQ(clocks_of(test::config(3), two_into_one)[2], first + 10'000 * kPsPerByte + kRecv);
}

TEST(Contention, FlowsOnDisjointLinksDoNotMeet) {
  const auto clocks = clocks_of(contended(4), [](int me) {
    if (me == 0) send_bytes(10'000, 1);
    if (me == 2) send_bytes(10'000, 3);
    if (me == 1) receive_bytes(10'000, 0);
    if (me == 3) receive_bytes(10'000, 2);
  });
  const SimTime alone = kSend + 10'000 * kPsPerByte + kLatency + kRecv;
  EXPECT_EQ(clocks[1], alone);
  EXPECT_EQ(clocks[3], alone);
}

TEST(Contention, ALaterFlowSharesWhatIsLeft) {
  // A (0 -> 2, 10 us of data) runs alone for 5 us; B (1 -> 2, the same size) then joins and
  // both go at half speed: A's last 5 us take 10 us, ending at 15 us after A's start; B has then
  // done 5 us and finishes its last 5 us alone.
  const auto clocks = clocks_of(contended(3), [](int me) {
    if (me == 0) send_bytes(10'000, 2);
    if (me == 1) {
      MPISIM_Compute(5e-6);
      send_bytes(10'000, 2);
    }
    if (me == 2) {
      receive_bytes(10'000, 0);
      const SimTime after_a = MPISIM_Clock_ps();
      EXPECT_EQ(after_a, kSend + 15'000'000 + kLatency + kRecv);
      receive_bytes(10'000, 1);
    }
  });
  EXPECT_EQ(clocks[2], kSend + 20'000'000 + kLatency + kRecv);
}

TEST(Contention, MaxMinSharesOnARing) {
  // ring of 4, dimension order, one link each way between neighbours:
  //   f1 0 -> 2 via 1, f2 1 -> 2, f4 3 -> 2 all end on node 2's link: a third each;
  //   f3 0 -> 1 shares node 0's link with f1 only, and takes the 2/3 that f1 leaves.
  // Each carries 10 us of data: f3 ends at 15 us; f1, f2, f4 at 30 us.
  mpisim::Config c = contended(4, "ring");
  std::vector<SimTime> done(4, -1);
  clocks_of(c, [&](int me) {
    if (me == 0) {
      MPI_Request r[2];
      std::vector<char> a(10'000), b(10'000);
      MPI_Isend(a.data(), 10'000, MPI_CHAR, 2, 0, MPI_COMM_WORLD, &r[0]);
      MPI_Isend(b.data(), 10'000, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
    if (me == 1 || me == 3) {
      std::vector<char> out(10'000);
      MPI_Request r;
      MPI_Isend(out.data(), 10'000, MPI_CHAR, 2, 0, MPI_COMM_WORLD, &r);
      if (me == 1) {
        const SimTime start = MPISIM_Clock_ps();
        receive_bytes(10'000, 0);
        done[1] = MPISIM_Clock_ps() - start;
      }
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    if (me == 2) {
      for (int from : {0, 1, 3})
        receive_bytes(10'000, from);
      done[2] = MPISIM_Clock_ps();
    }
  });
  // Rank 0's second send is injected one send overhead after its first.
  EXPECT_EQ(done[1], 2 * kSend + 15'000'000 + kLatency + kRecv - kSend);
  // The three flows into node 2 started at kSend (ranks 1 and 3) and kSend (rank 0's first).
  EXPECT_EQ(done[2], kSend + 30'000'000 + kLatency + 3 * kRecv);
}

TEST(Contention, RendezvousDataIsContendedToo) {
  // 100 000 bytes, above the 64 KiB eager limit: request-to-send (1 us), clear-to-send (1 us),
  // then both data transfers start together and share rank 2's link: 200 us instead of 100.
  constexpr int kBytes = 100'000;
  const auto clocks = clocks_of(contended(3), [](int me) {
    if (me < 2) send_bytes(kBytes, 2);
    if (me == 2) {
      std::vector<char> a(kBytes), b(kBytes);
      MPI_Request r[2];
      MPI_Irecv(a.data(), kBytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv(b.data(), kBytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
  });
  const SimTime data_start = kSend + 2 * kLatency;
  const SimTime data_end = data_start + 2 * kBytes * kPsPerByte;
  EXPECT_EQ(clocks[0], data_end); // the send completes when its data has left
  EXPECT_EQ(clocks[1], data_end);
  EXPECT_EQ(clocks[2], data_end + kLatency + 2 * kRecv);
}

TEST(Contention, WildcardReceivesTakeMessagesInContendedArrivalOrder) {
  // A (0 -> 2, 10 000 B) starts at once; B (1 -> 2, 1 000 B) joins 5 us later at half speed:
  // B ends 2 us after it starts, A 1 us after that plus the 4 us it still needs alone.
  for (bool det : {true, false}) {
    mpisim::Config c = contended(3);
    c.det = det;
    std::vector<int> sources;
    std::vector<SimTime> times;
    clocks_of(c, [&](int me) {
      if (me == 0) send_bytes(10'000, 2);
      if (me == 1) {
        MPISIM_Compute(5e-6);
        send_bytes(1'000, 2);
      }
      if (me == 2) {
        std::vector<char> buf(10'000);
        for (int i = 0; i < 2; ++i) {
          MPI_Status st;
          MPI_Recv(buf.data(), 10'000, MPI_CHAR, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
          sources.push_back(st.MPI_SOURCE);
          times.push_back(MPISIM_Clock_ps());
        }
      }
    });
    SCOPED_TRACE(det ? "DET on" : "DET off");
    EXPECT_EQ(sources, (std::vector<int>{1, 0}));
    const SimTime b_end = 5'000'000 + kSend + 2'000'000;
    const SimTime a_end = b_end + 4'000'000; // 5 us done alone, 1 us at half speed, 4 us left
    EXPECT_EQ(times, (std::vector<SimTime>{b_end + kLatency + kRecv, a_end + kLatency + kRecv}));
  }
}

TEST(Contention, RanksOfOneNodeUseSharedMemoryNotTheNetwork) {
  mpisim::Config c = contended(4);
  c.machine.ranks_per_node = 2; // ranks 0, 1 on node 0; 2, 3 on node 1
  const auto clocks = clocks_of(c, [](int me) {
    if (me == 0 || me == 2) send_bytes(10'000, me + 1);
    if (me == 1 || me == 3) receive_bytes(10'000, me - 1);
  });
  // No intra-node parameters: as fast as one network link, and no sharing between the nodes.
  EXPECT_EQ(clocks[1], kSend + 10'000 * kPsPerByte + kLatency + kRecv);
  EXPECT_EQ(clocks[3], clocks[1]);
}

TEST(Contention, RanksOfOneNodeShareTheMemoryOfTheirReceiver) {
  // Ranks 1, 2 and 3 send 10 000 bytes each to rank 0 of their node at once: the three flows
  // share rank 0's memory, each at a third of its speed, so all end 30 us after they start.
  mpisim::Config c = contended(4);
  c.machine.ranks_per_node = 4;
  const auto clocks = clocks_of(c, [](int me) {
    if (me > 0) send_bytes(10'000, 0);
    if (me == 0)
      for (int from = 1; from < 4; ++from)
        receive_bytes(10'000, from);
  });
  EXPECT_EQ(clocks[0], kSend + 3 * 10'000 * kPsPerByte + kLatency + 3 * kRecv);
}

/// An exchange where every rank sends a different amount to every other, with wildcard
/// receives: many overlapping flows.
std::vector<SimTime> all_to_all(const mpisim::Config& c) {
  return clocks_of(c, [&](int me) {
    const int n = test::world_size();
    std::vector<std::vector<char>> out(static_cast<std::size_t>(n));
    std::vector<MPI_Request> sends;
    for (int k = 1; k < n; ++k) {
      const int to = (me + k) % n;
      const int bytes = 1000 * (1 + (me * 7 + to * 3) % 11);
      out[static_cast<std::size_t>(to)].resize(static_cast<std::size_t>(bytes));
      sends.emplace_back();
      MPI_Isend(out[static_cast<std::size_t>(to)].data(), bytes, MPI_CHAR, to, 5, MPI_COMM_WORLD,
                &sends.back());
    }
    std::vector<char> in(20'000);
    for (int k = 1; k < n; ++k)
      MPI_Recv(in.data(), 20'000, MPI_CHAR, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  });
}

TEST(Contention, ResultsDoNotDependOnHowTheHostRunsTheRanks) {
  // Deterministic mode changes when the host decides matches and so the order it runs ranks
  // in; the simulated times must not change.
  for (const char* topology : {"fully-connected", "ring", "torus:2x4", "hypercube"}) {
    mpisim::Config c = contended(8, topology);
    const std::vector<SimTime> with_det = all_to_all(c);
    c.det = false;
    EXPECT_EQ(all_to_all(c), with_det) << topology;
    // Contention only ever delays.
    mpisim::Config free = c;
    free.machine.network = "latency";
    const std::vector<SimTime> uncontended = all_to_all(free);
    for (std::size_t r = 0; r < with_det.size(); ++r)
      EXPECT_GE(with_det[r], uncontended[r]) << topology << " rank " << r;
  }
}

TEST(FlowNetwork, ProjectsAndSettlesInTimeOrder) {
  mpisim::FlowNetwork net;
  // Two flows of 6 and 12 ps on one link, the second starting 3 ps later.
  net.add({0, 0, 0, 0}, {0, 6, {1}, 10});
  net.add({3, 1, 0, 0}, {3, 12, {1}, 11});
  // 0-3: the first alone (3 ps done); 3-9: both at half speed (3 more each); the first ends at
  // 9, the second does its last 9 ps alone and ends at 18.
  // Alone-effect horizon: the first flow to finish, and nothing after it.
  const auto first_end = [](const mpisim::FlowNetwork::Finished& f) { return f.finish; };
  auto projected = net.finishes_until(mpilite::kTimeInfinity, first_end);
  ASSERT_EQ(projected.size(), 1u);
  EXPECT_EQ(projected[0].finish, 9);
  EXPECT_EQ(projected[0].payload, 10u);
  // A horizon before 9 leaves nothing final; an effect 9 ps after the end lets both through.
  EXPECT_TRUE(net.finishes_until(8, first_end).empty());
  projected = net.finishes_until(
      mpilite::kTimeInfinity, [](const mpisim::FlowNetwork::Finished& f) { return f.finish + 9; });
  ASSERT_EQ(projected.size(), 2u);
  EXPECT_EQ(projected[1].finish, 18);
  const auto bounds = net.finish_lower_bounds(5); // 2 ps left of the first, 11 of the second
  ASSERT_EQ(bounds.size(), 2u);
  EXPECT_EQ(bounds[0], (std::pair<std::size_t, SimTime>{10, 7}));
  EXPECT_EQ(bounds[1], (std::pair<std::size_t, SimTime>{11, 16}));
  EXPECT_TRUE(net.advance(8).empty());
  const auto first = net.advance(9);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].payload, 10u);
  EXPECT_EQ(first[0].finish, 9);
  EXPECT_EQ(net.finishes_until(mpilite::kTimeInfinity, first_end).at(0).finish, 18);
  EXPECT_THROW(net.add({5, 2, 0, 0}, {5, 1, {1}, 12}), std::logic_error); // before now()
}

// Shares are integers: exact for up to 16 flows on a link (three flows of 3 000 ps each end
// together at 9 000 ps, not a picosecond later), and where a share must round (17 flows, or
// 1/17 of the link each) it rounds down, so the flows end no earlier than the exact 17 000 ps and
// at most a picosecond after it.
TEST(FlowNetwork, SharesAreExactForSmallCountsAndNeverFasterThanTheLink) {
  for (const int n : {3, 7, 16, 17}) {
    mpisim::FlowNetwork net;
    for (int i = 0; i < n; ++i)
      net.add({0, i, 0, 0}, {0, 1000, {1}, static_cast<std::size_t>(i)});
    const std::vector<mpisim::FlowNetwork::Finished> done = net.advance(SimTime{1000} * n + 1);
    ASSERT_EQ(done.size(), static_cast<std::size_t>(n)) << n << " flows";
    for (const auto& f : done) {
      if (n <= 16)
        EXPECT_EQ(f.finish, SimTime{1000} * n) << n << " flows";
      else
        EXPECT_EQ(f.finish, SimTime{1000} * n + 1) << n << " flows";
    }
  }
}

// A send whose arrival, decided later by the contention model, would pass the limit of simulated
// time ends the run naming the send, as under the default network.
TEST(Contention, ASendPastTheTimeLimitEndsTheRunNamingIt) {
  const auto r = test::simulate(contended(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    std::vector<char> buf(32768);
    if (test::world_rank() == 0) {
      MPISIM_Compute(1999999.99999); // 10 us before the limit; the message needs 32.8 us
      MPI_Send(buf.data(), 32768, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    } else {
      MPI_Recv(buf.data(), 32768, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Limit);
  EXPECT_NE(r.message.find("rank 0: MPI_Send: a message of 32768 bytes to rank 1: simulated time "
                           "would pass the limit"),
            std::string::npos)
      << r.message;
}

} // namespace
