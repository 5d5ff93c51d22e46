// Point-to-point semantics and their simulated cost, checked against the analytic model.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000; // 1 GB/s

SimTime eager_leg(SimTime bytes) {
  return kSendOverhead + kLatency + bytes * kPsPerByte + kRecvOverhead;
}
// Above the eager limit: request-to-send, clear-to-send, then the data (docs/model.md).
SimTime rendezvous_leg(SimTime bytes) {
  return kSendOverhead + 3 * kLatency + bytes * kPsPerByte + kRecvOverhead;
}

/// Measures one ping-pong of `bytes` between ranks 0 and 1, as MPISIM_Clock_ps sees it.
SimTime ping_pong_round_trip(int bytes) {
  SimTime rtt = -1;
  std::vector<char> payload_ok(2, 0);
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    std::vector<char> buf(static_cast<std::size_t>(bytes) + 1, static_cast<char>(me + 1));
    const long long t0 = MPISIM_Clock_ps();
    if (me == 0) {
      MPI_Send(buf.data(), bytes, MPI_CHAR, 1, 7, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), bytes, MPI_CHAR, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      rtt = MPISIM_Clock_ps() - t0;
    } else {
      MPI_Recv(buf.data(), bytes, MPI_CHAR, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), bytes, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
    }
    // Rank 1 forwarded rank 0's bytes back: both now hold rank 0's pattern.
    payload_ok[static_cast<std::size_t>(me)] =
        bytes == 0 || (buf[0] == 1 && buf[static_cast<std::size_t>(bytes - 1)] == 1);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Finished);
  EXPECT_TRUE(payload_ok[0] && payload_ok[1]);
  return rtt;
}

TEST(PointToPoint, EagerPingPongRoundTripIsExact) {
  for (int n : {0, 1, 8, 1000, 4096, 65536})
    EXPECT_EQ(ping_pong_round_trip(n), 2 * eager_leg(n)) << n << " bytes";
}

TEST(PointToPoint, RendezvousPingPongRoundTripIsExact) {
  for (int n : {65537, 100000, 1 << 20})
    EXPECT_EQ(ping_pong_round_trip(n), 2 * rendezvous_leg(n)) << n << " bytes";
}

TEST(PointToPoint, AMessageToOneselfIsALocalCopyThatTakesNoTime) {
  // Eager and rendezvous sizes, then the same eager message to the other rank, which costs the
  // model's leg: only the message to oneself is free.
  std::vector<int> ok(2, 0);
  SimTime after_self = -1, after_other = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    int good = 1;
    for (int n : {0, 8, 65536, 1 << 20}) {
      std::vector<char> out(static_cast<std::size_t>(n) + 1, static_cast<char>('a' + me));
      std::vector<char> in(static_cast<std::size_t>(n) + 1, 0);
      MPI_Sendrecv(out.data(), n, MPI_CHAR, me, 5, in.data(), n, MPI_CHAR, me, 5, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      good &= n == 0 || (in[0] == 'a' + me && in[static_cast<std::size_t>(n - 1)] == 'a' + me);
    }
    if (me == 0) after_self = MPISIM_Clock_ps();
    int v = me, w = -1;
    MPI_Sendrecv(&v, 1, MPI_INT, 1 - me, 6, &w, 1, MPI_INT, 1 - me, 6, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    good &= w == 1 - me;
    if (me == 0) after_other = MPISIM_Clock_ps();
    ok[static_cast<std::size_t>(me)] = good;
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_TRUE(ok[0] && ok[1]);
  EXPECT_EQ(after_self, 0);
  EXPECT_EQ(after_other, eager_leg(4));
}

TEST(PointToPoint, TokenRingOfThousandRanksTenRounds) {
  constexpr int kRanks = 1000, kRounds = 10;
  int final_token = -1;
  auto r = test::simulate(test::config(kRanks), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank(), n = test::world_size();
    const int next = (me + 1) % n, prev = (me + n - 1) % n;
    int token = 0;
    for (int round = 0; round < kRounds; ++round) {
      if (me == 0) {
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++token;
      } else {
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++token;
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
      }
    }
    if (me == 0) final_token = token;
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  EXPECT_EQ(final_token, kRanks * kRounds);
  // Every hop is one eager message of an int, back to back: the last receive ends the run.
  EXPECT_EQ(r.predicted, SimTime{kRanks} * kRounds * eager_leg(sizeof(int)));
}

TEST(PointToPoint, AnySourceTakesEarliestRecvTimestampNotHostOrder) {
  // Ranks run in host order 0, 1, 2. Rank 1 sends first in host order but late in simulated
  // time; rank 2 sends later in host order but earlier in simulated time.
  std::vector<int> sources, values;
  auto r = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      for (int i = 0; i < 2; ++i) {
        int v = 0;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        sources.push_back(st.MPI_SOURCE);
        values.push_back(v);
      }
    } else {
      if (me == 1) MPISIM_Compute(50e-6);
      int v = 100 + me;
      MPI_Send(&v, 1, MPI_INT, 0, me, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  EXPECT_EQ(sources, (std::vector<int>{2, 1}));
  EXPECT_EQ(values, (std::vector<int>{102, 101}));
  // Rank 0 ends when rank 1's late message has arrived and been received.
  EXPECT_EQ(r.ranks[0].clock, 50'000'000 + eager_leg(sizeof(int)));
}

TEST(PointToPoint, AnySourceTieBreaksOnLowerSource) {
  // Both messages arrive at the same simulated time: the lower source rank wins.
  std::vector<int> sources;
  auto r = test::simulate(test::config(4), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      for (int i = 0; i < 3; ++i) {
        MPI_Status st;
        MPI_Recv(nullptr, 0, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
        sources.push_back(st.MPI_SOURCE);
      }
    } else {
      MPI_Send(nullptr, 0, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  EXPECT_EQ(sources, (std::vector<int>{1, 2, 3}));
}

TEST(PointToPoint, NonOvertakingFromOneSource) {
  std::vector<int> got;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 1) {
      // A large (rendezvous) message first, then small ones that would arrive earlier.
      std::vector<int> big(100000, 1);
      MPI_Request reqs[3];
      int a = 2, b = 3;
      MPI_Isend(big.data(), 100000, MPI_INT, 0, 0, MPI_COMM_WORLD, &reqs[0]);
      MPI_Isend(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &reqs[1]);
      MPI_Isend(&b, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &reqs[2]);
      MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    } else {
      std::vector<int> buf(100000, 0);
      for (int i = 0; i < 3; ++i) {
        MPI_Status st;
        MPI_Recv(buf.data(), 100000, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
        int count;
        MPI_Get_count(&st, MPI_INT, &count);
        got.push_back(count == 1 ? buf[0] : -count);
      }
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  EXPECT_EQ(got, (std::vector<int>{-100000, 2, 3}));
}

TEST(PointToPoint, SynchronousSendCompletesWhenAcknowledgementArrives) {
  SimTime send_done = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v = 1;
    if (test::world_rank() == 0) {
      MPI_Ssend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      send_done = MPISIM_Clock_ps();
    } else {
      MPISIM_Compute(10e-6); // the receive is posted late
      MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  // Matched when the receive is posted (10 us), acknowledged one latency later.
  EXPECT_EQ(send_done, 10'000'000 + kLatency);
}

TEST(PointToPoint, IsendIrecvWaitallSendrecvAndProcNull) {
  std::vector<int> left(8, -1), right(8, -1), counts(8, -1), null_sources(8, 0);
  auto r = test::simulate(test::config(8), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank(), n = test::world_size();
    const auto u = static_cast<std::size_t>(me);
    int from_left = -1, from_right = -1, mine = me * 10;
    MPI_Request reqs[4];
    MPI_Irecv(&from_left, 1, MPI_INT, (me + n - 1) % n, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&from_right, 1, MPI_INT, (me + 1) % n, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&mine, 1, MPI_INT, (me + 1) % n, 1, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(&mine, 1, MPI_INT, (me + n - 1) % n, 2, MPI_COMM_WORLD, &reqs[3]);
    MPI_Status st[4];
    MPI_Waitall(4, reqs, st);
    left[u] = from_left;
    right[u] = from_right;
    MPI_Get_count(&st[0], MPI_INT, &counts[u]);
    for (MPI_Request q : reqs)
      EXPECT_EQ(q, MPI_REQUEST_NULL);
    // MPI_PROC_NULL: completes at once with the null status.
    MPI_Status ps;
    int dummy = 0;
    MPI_Sendrecv(&mine, 1, MPI_INT, MPI_PROC_NULL, 0, &dummy, 1, MPI_INT, MPI_PROC_NULL, 0,
                 MPI_COMM_WORLD, &ps);
    null_sources[u] = ps.MPI_SOURCE;
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  for (int i = 0; i < 8; ++i) {
    const auto u = static_cast<std::size_t>(i);
    EXPECT_EQ(left[u], ((i + 7) % 8) * 10);
    EXPECT_EQ(right[u], ((i + 1) % 8) * 10);
    EXPECT_EQ(counts[u], 1);
    EXPECT_EQ(null_sources[u], MPI_PROC_NULL);
  }
}

TEST(PointToPoint, TestAnswersInSimulatedTime) {
  // Rank 1 sends at 10 us; rank 0 polls with MPI_Test. Each unsuccessful poll costs the poll
  // overhead (50 ns), so the first successful poll is the first at or after the arrival.
  int polls = 0;
  SimTime done = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v = 0;
    if (test::world_rank() == 0) {
      MPI_Request q;
      MPI_Irecv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
      int flag = 0;
      while (!flag) {
        MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
        ++polls;
      }
      done = MPISIM_Clock_ps();
      EXPECT_EQ(v, 42);
    } else {
      MPISIM_Compute(10e-6);
      v = 42;
      MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  const SimTime arrival = 10'000'000 + kSendOverhead + kLatency + 4 * kPsPerByte;
  const SimTime poll = 50'000;
  const SimTime failed = (arrival + poll - 1) / poll; // polls that ended before the arrival
  EXPECT_EQ(polls, failed + 1);
  EXPECT_EQ(done, failed * poll + kRecvOverhead);
}

TEST(PointToPoint, BufferedSendNeedsAttachedBuffer) {
  int without = -1, with = -1, received = 0;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v = 9;
    if (test::world_rank() == 0) {
      without = MPI_Bsend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      std::vector<char> space(sizeof(int) + MPI_BSEND_OVERHEAD);
      MPI_Buffer_attach(space.data(), static_cast<int>(space.size()));
      with = MPI_Bsend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      void* b;
      int size;
      MPI_Buffer_detach(&b, &size);
    } else {
      MPI_Recv(&received, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  EXPECT_EQ(without, MPI_ERR_BUFFER);
  EXPECT_EQ(with, MPI_SUCCESS);
  EXPECT_EQ(received, 9);
}

} // namespace
