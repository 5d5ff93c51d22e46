// MPISIM_NETWORK=nic: each node's NIC sends, and delivers, one message's bytes after another,
// first come first served in simulated time. Checked against times worked out by hand, and
// against the order in which the host happens to run the ranks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

using mpisim::SimTime;
using test::clocks_of;

// The harness's round machine: o_s 100 ns, o_r 200 ns, L 1 us, 1 GB/s (1 ns per byte), eager up
// to 64 KiB.
constexpr SimTime kSend = 100'000, kRecv = 200'000, kLatency = 1'000'000, kPsPerByte = 1000;

mpisim::Config nic(int ranks, int ranks_per_node = 1) {
  mpisim::Config c = test::config(ranks);
  c.machine.network = "nic";
  c.machine.ranks_per_node = ranks_per_node;
  return c;
}

/// Posts `count` non-blocking sends (or receives) of `bytes` each to (from) `peer`, then waits.
void exchange_many(bool send, int count, int bytes, int peer) {
  std::vector<std::vector<char>> bufs(static_cast<std::size_t>(count),
                                      std::vector<char>(static_cast<std::size_t>(bytes), 7));
  std::vector<MPI_Request> reqs(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    auto* b = bufs[static_cast<std::size_t>(i)].data();
    if (send)
      MPI_Isend(b, bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(i)]);
    else
      MPI_Irecv(b, bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(i)]);
  }
  MPI_Waitall(count, reqs.data(), MPI_STATUSES_IGNORE);
  if (send) return;
  for (const auto& b : bufs)
    EXPECT_EQ(b[static_cast<std::size_t>(bytes) - 1], 7);
}

TEST(Nic, OverlappingSendsOfOneRankLeaveOneAfterAnother) {
  // Eight rendezvous sends of 100 000 bytes (100 us each at 1 GB/s) posted at once: the i-th
  // request-to-send leaves at (i+1) o_s, its clear-to-send is back 2 L later, and the data then
  // waits for the NIC. The first starts at o_s + 2 L; each takes 100 us; the last byte of the
  // last leaves 800 us after the first began and arrives a latency later.
  constexpr int kCount = 8, kBytes = 100'000;
  const auto clocks =
      clocks_of(nic(2), [](int me) { exchange_many(me == 0, kCount, kBytes, 1 - me); });
  const SimTime first = kSend + 2 * kLatency;
  const SimTime last_sent = first + kCount * kBytes * kPsPerByte;
  EXPECT_EQ(clocks[0], last_sent);
  EXPECT_EQ(clocks[1], last_sent + kLatency + kRecv);
  // Alone on the network (MPISIM_NETWORK=latency) the eight overlap: 8 x 100 000 bytes in
  // 101.8 us, 7.9 GB/s through a 1 GB/s link.
  mpisim::Config alone = nic(2);
  alone.machine.network = "latency";
  const auto fast =
      clocks_of(alone, [](int me) { exchange_many(me == 0, kCount, kBytes, 1 - me); });
  EXPECT_LT(fast[1], clocks[1] / 7);
}

TEST(Nic, AnEagerSendIsDoneWhenItsBytesHaveLeft) {
  // MPI_Send of 10 000 bytes (eager): done once the NIC has sent them, 10 us after o_s; a second
  // one queues behind the first.
  const auto clocks = clocks_of(nic(2), [](int me) {
    std::vector<char> buf(10'000, 1);
    for (int i = 0; i < 2; ++i) {
      if (me == 0) MPI_Send(buf.data(), 10'000, MPI_CHAR, 1, i, MPI_COMM_WORLD);
      if (me == 1) MPI_Recv(buf.data(), 10'000, MPI_CHAR, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  });
  const SimTime w = 10'000 * kPsPerByte;
  // First: leaves at o_s, sent at o_s + w. Second: posted then, leaves o_s later, sent w after.
  EXPECT_EQ(clocks[0], 2 * (kSend + w));
  // Arrivals at 2 o_s + 2 w + L... each a latency after its last byte left; the receiver pays
  // o_r after each.
  EXPECT_EQ(clocks[1], 2 * (kSend + w) + kLatency + kRecv);
}

TEST(Nic, EachPacketsOverheadKeepsTheNicBusy) {
  // Four eager Isends of 10 000 bytes at once, in packets of 1 000 bytes at 100 ns each: each
  // keeps the NIC 10 us for its bytes and 1 us for its ten packets (the link's own time per
  // message), so the last byte of the last leaves at o_s + 4 x 11 us, not o_s + 4 x 10 us.
  mpisim::Config c = nic(2);
  c.machine.packet_size = 1'000;
  c.machine.packet_overhead = 100'000;
  const auto clocks = clocks_of(c, [](int me) { exchange_many(me == 0, 4, 10'000, 1 - me); });
  const SimTime w = 10'000 * kPsPerByte + 10 * 100'000;
  EXPECT_EQ(clocks[0], kSend + 4 * w);
}

TEST(Nic, ManySendersToOneReceiverShareItsNic) {
  // Four ranks send 50 000 bytes each to rank 4 at once (eager): each leaves its own NIC in
  // 50 us, but rank 4's NIC delivers them one after another, so the last arrives 200 us after
  // the first byte left, not 50 us.
  constexpr int kBytes = 50'000;
  const auto clocks = clocks_of(nic(5), [](int me) {
    std::vector<char> buf(kBytes, 3);
    if (me < 4) MPI_Send(buf.data(), kBytes, MPI_CHAR, 4, 0, MPI_COMM_WORLD);
    if (me == 4)
      for (int i = 0; i < 4; ++i)
        MPI_Recv(buf.data(), kBytes, MPI_CHAR, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  });
  const SimTime w = kBytes * kPsPerByte;
  for (int s = 0; s < 4; ++s)
    EXPECT_EQ(clocks[static_cast<std::size_t>(s)], kSend + w);
  // The first arrives at o_s + w + L; each next w later. The receiver's clock: the last
  // arrival, plus its overhead (the others' overheads fit in the gaps).
  EXPECT_EQ(clocks[4], kSend + w + kLatency + 3 * w + kRecv);
}

TEST(Nic, RanksOfOneNodeShareItsNicButNotForMessagesInsideIt) {
  // Ranks 0 and 1 on node 0, 2 and 3 on node 1. Ranks 0 and 1 each send 20 000 bytes to node 1
  // at once: the node's NIC sends rank 0's first (same time, lower rank), then rank 1's.
  constexpr int kBytes = 20'000;
  const auto clocks = clocks_of(nic(4, 2), [](int me) {
    std::vector<char> buf(kBytes, 5);
    if (me < 2) MPI_Send(buf.data(), kBytes, MPI_CHAR, me + 2, 0, MPI_COMM_WORLD);
    if (me >= 2)
      MPI_Recv(buf.data(), kBytes, MPI_CHAR, me - 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  });
  const SimTime w = kBytes * kPsPerByte;
  EXPECT_EQ(clocks[0], kSend + w);
  EXPECT_EQ(clocks[1], kSend + 2 * w);
  EXPECT_EQ(clocks[2], kSend + w + kLatency + kRecv);
  EXPECT_EQ(clocks[3], kSend + 2 * w + kLatency + kRecv);
  // Inside the node the NIC is not used: the same sends to the neighbour on the node go at once,
  // each through its own ranks' memory (the harness's intra-node link is the network's), and
  // arrive when the latency model says. The sender copies its bytes out before its send is done.
  mpisim::Config plain = nic(4, 2);
  plain.machine.network = "latency";
  const auto inside = [](int me) {
    std::vector<char> buf(kBytes, 5);
    if (me % 2 == 0) MPI_Send(buf.data(), kBytes, MPI_CHAR, me + 1, 0, MPI_COMM_WORLD);
    if (me % 2 == 1)
      MPI_Recv(buf.data(), kBytes, MPI_CHAR, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  };
  const auto in_node = clocks_of(nic(4, 2), inside);
  const auto alone = clocks_of(plain, inside);
  EXPECT_EQ(in_node[1], alone[1]);
  EXPECT_EQ(in_node[3], alone[3]);
  EXPECT_EQ(in_node[0], kSend + w);
  EXPECT_EQ(in_node[2], kSend + w);
}

TEST(Nic, ARankTakesMessagesFromItsNodeOneAfterAnother) {
  // Ranks 1 to 3 send 50 000 bytes each (eager) to rank 0 of their node at once, and nothing
  // crosses a NIC. Each copies its message out in 50 us; rank 0 copies one message in after
  // another, so the last arrives 150 us after the first byte left, not 50 us: a rank's memory
  // is no faster than the intra-node bandwidth, whoever sends. Rank 0's own sends to rank 1 and
  // 2 leave one after another too.
  constexpr int kBytes = 50'000, kNode = 4;
  const auto clocks = clocks_of(nic(kNode, kNode), [](int me) {
    std::vector<char> buf(kBytes, 3);
    if (me > 0) MPI_Send(buf.data(), kBytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    if (me == 0)
      for (int i = 0; i < kNode - 1; ++i) {
        MPI_Status st;
        MPI_Recv(buf.data(), kBytes, MPI_CHAR, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
        EXPECT_EQ(st.MPI_SOURCE, i + 1); // in turn, by rank at equal times
      }
  });
  const SimTime w = kBytes * kPsPerByte;
  for (int s = 1; s < kNode; ++s)
    EXPECT_EQ(clocks[static_cast<std::size_t>(s)], kSend + w);
  EXPECT_EQ(clocks[0], kSend + w + kLatency + 2 * w + kRecv);
  const auto fan_out = clocks_of(nic(3, 3), [](int me) {
    std::vector<char> buf(kBytes, 3);
    if (me == 0) {
      MPI_Request r[2];
      for (int i = 0; i < 2; ++i)
        MPI_Isend(buf.data(), kBytes, MPI_CHAR, i + 1, 0, MPI_COMM_WORLD, &r[i]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else {
      MPI_Recv(buf.data(), kBytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  });
  EXPECT_EQ(fan_out[1], kSend + w + kLatency + kRecv);
  // The second's overhead is spent while the first is copied out.
  EXPECT_EQ(fan_out[2], kSend + 2 * w + kLatency + kRecv);
}

TEST(Nic, TheOrderIsSimulatedTimeNotTheOrderTheHostRanTheRanks) {
  // Rank 1 (on rank 0's node) sends at 0; rank 0 computes 5 us first, then sends. The host runs
  // rank 0 first, so its send is planned first, but rank 1's comes first at the NIC.
  constexpr int kBytes = 20'000;
  const auto clocks = clocks_of(nic(4, 2), [](int me) {
    std::vector<char> buf(kBytes, 5);
    if (me == 0) MPISIM_Compute(5e-6);
    if (me < 2) MPI_Send(buf.data(), kBytes, MPI_CHAR, me + 2, 0, MPI_COMM_WORLD);
    if (me >= 2)
      MPI_Recv(buf.data(), kBytes, MPI_CHAR, me - 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  });
  const SimTime w = kBytes * kPsPerByte;
  EXPECT_EQ(clocks[1], kSend + w);
  EXPECT_EQ(clocks[0], kSend + 2 * w); // waits until rank 1's bytes have left (at 20.1 us)
}

TEST(Nic, AMessageStreamingInIsNotOvertakenByAShortOneThatEndsFirst) {
  // Rank 0 sends 10 000 bytes to rank 2 at 0: its first byte reaches rank 2's NIC at o_s + L,
  // its last 10 us later. Rank 1 sends 8 bytes at 5 us: they would end at 5 us + o_s + L + 8 ns,
  // before the long one, but begin after it, so they are delivered after its last byte. (Ordered
  // by last byte, the long one would wait for the short one and end 10 us after it, with its
  // NIC idle meanwhile: slower than the link.)
  std::vector<SimTime> got(2, -1);
  clocks_of(nic(3), [&](int me) {
    std::vector<char> buf(10'000, 1);
    if (me == 0) MPI_Send(buf.data(), 10'000, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
    if (me == 1) {
      MPISIM_Compute(5e-6);
      MPI_Send(buf.data(), 8, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
    }
    if (me == 2)
      for (int from = 0; from < 2; ++from) {
        MPI_Recv(buf.data(), 10'000, MPI_CHAR, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        got[static_cast<std::size_t>(from)] = MPISIM_Clock_ps();
      }
  });
  const SimTime long_arrives = kSend + kLatency + 10'000 * kPsPerByte;
  EXPECT_EQ(got[0], long_arrives + kRecv);
  EXPECT_EQ(got[1], std::max(long_arrives + 8 * kPsPerByte, got[0]) + kRecv);
}

TEST(Nic, ADeliveryThatWakesARankComesBeforeALaterInjection) {
  // Ranks 0 and 1 on node 0, 2 and 3 on node 1. Rank 3 sends 100 000 bytes (rendezvous) to
  // rank 1: the data reaches rank 1 at 2 L + o_s + w = 102.1 + L us, and rank 1 then sends
  // 50 000 bytes to rank 2 at once (ready at its NIC o_r + o_s later, 103.4 us). Rank 0 computes
  // until 103.45 us, then sends 50 000 bytes to rank 2 (ready at 103.55 us). Rank 1's bytes are
  // ready first, so they leave first, although rank 0 planned its send long before rank 1
  // could: rank 1 was only woken by the delivery, and no rank waited for any decision then.
  constexpr int kBig = 100'000, kEager = 50'000;
  constexpr SimTime kData = kSend + 2 * kLatency + kBig * kPsPerByte + kLatency;
  constexpr SimTime kRank0Send = 103'450'000;
  const auto clocks = clocks_of(nic(4, 2), [](int me) {
    std::vector<char> buf(kBig, 5);
    if (me == 3) MPI_Send(buf.data(), kBig, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    if (me == 1) {
      MPI_Recv(buf.data(), kBig, MPI_CHAR, 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), kEager, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
    }
    if (me == 0) {
      MPISIM_Compute(static_cast<double>(kRank0Send) * 1e-12);
      MPI_Send(buf.data(), kEager, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
    }
    if (me == 2)
      for (int from = 0; from < 2; ++from)
        MPI_Recv(buf.data(), kEager, MPI_CHAR, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  });
  ASSERT_EQ(kData + kRecv + kSend, 103'400'000);
  const SimTime w = kEager * kPsPerByte;
  EXPECT_EQ(clocks[1], kData + kRecv + kSend + w);
  EXPECT_EQ(clocks[0], kData + kRecv + kSend + 2 * w); // after rank 1's bytes
}

TEST(Nic, ASingleMessageArrivesWhenTheLatencyModelSaysSo) {
  // Alone, a message arrives when it would without the NIC model: only overlap changes that.
  for (int bytes : {0, 8, 4096, 65'536, 200'000}) {
    const auto body = [bytes](int me) {
      std::vector<char> buf(static_cast<std::size_t>(bytes) + 1, 9);
      if (me == 0) MPI_Send(buf.data(), bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      if (me == 1) MPI_Recv(buf.data(), bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    };
    mpisim::Config plain = nic(2);
    plain.machine.network = "latency";
    EXPECT_EQ(clocks_of(nic(2), body)[1], clocks_of(plain, body)[1]) << bytes << " bytes";
  }
}

TEST(Nic, AnEagerSendWaitsForItsNicWithoutLeavingItsFiber) {
  // A ping-pong: each MPI_Send waits for its NIC to send, which is decided once the other rank
  // is blocked too. The sender, the last to stop, has the decision made on its own fiber as it
  // blocks: each message then costs one switch to the rank it wakes and no idle round (it was
  // 4 switches and 2 idle rounds), and the times are those of the latency model.
  static constexpr int kRoundTrips = 50;
  const auto run = [](const mpisim::Config& c) {
    return test::simulate(c, [](int, char**) {
      MPI_Init(nullptr, nullptr);
      const int me = test::world_rank();
      double x = 0;
      for (int i = 0; i < kRoundTrips; ++i) {
        if (me == 0) {
          MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
          MPI_Recv(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          x += 1;
          MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        }
      }
      if (me == 0) {
        EXPECT_EQ(x, kRoundTrips);
      }
      MPI_Finalize();
      return 0;
    });
  };
  const mpisim::RunSummary r = run(nic(2));
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  mpisim::Config plain = nic(2);
  plain.machine.network = "latency";
  EXPECT_EQ(r.predicted, run(plain).predicted);
  // Beyond the messages: the ranks' start and end.
  EXPECT_LE(r.context_switches, 2u * kRoundTrips + 8);
  EXPECT_LE(r.idle_rounds, 2u);
}

TEST(Nic, APingPongFollowsSegmentLinesEvenOnesThatStartBelowTheLatency) {
  // A calibrated machine's segment lines: one with its own slower latency, and one whose
  // intercept is negative (fitted through two large sizes). Alone on the network, the NIC model
  // must give the times of those lines, as the latency model does: the NIC is busy no longer
  // than the line takes to carry the bytes.
  mpisim::Config c = nic(2);
  c.machine.segments = {{16'384, 3'000'000, 2e9}, {200'000, -2'000'000, 0.8e9}};
  for (int bytes : {1'000, 20'000, 100'000, 200'000, 1'000'000}) {
    const auto body = [bytes](int me) {
      std::vector<char> buf(static_cast<std::size_t>(bytes) + 1, 9);
      for (int i = 0; i < 3; ++i) {
        if (me == i % 2) MPI_Send(buf.data(), bytes, MPI_CHAR, 1 - me, 0, MPI_COMM_WORLD);
        if (me != i % 2)
          MPI_Recv(buf.data(), bytes, MPI_CHAR, 1 - me, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    };
    mpisim::Config plain = c;
    plain.machine.network = "latency";
    // Rank 1 ends on the third message, which rank 0 sends once the second has arrived. (A
    // sender's eager send is done once its bytes have left, so rank 0's clock differs.)
    EXPECT_EQ(clocks_of(c, body)[1], clocks_of(plain, body)[1]) << bytes << " bytes";
  }
}

} // namespace
