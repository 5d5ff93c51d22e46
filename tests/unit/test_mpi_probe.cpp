// MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv: what they find, and
// when in simulated time (docs/model.md, "Tests and polls").
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000, kPoll = 50'000;

/// Recv timestamp of an eager message of `bytes` sent at `t` (docs/model.md).
SimTime arrival(SimTime t, SimTime bytes) {
  return t + kSendOverhead + kLatency + bytes * kPsPerByte;
}

/// Failed polls of a loop that starts at clock 0 and finds a message arriving at `t`: one per
/// poll that ended before the arrival.
SimTime failed_polls(SimTime t) {
  return (t + kPoll - 1) / kPoll;
}

mpisim::Config config(int ranks, bool det) {
  mpisim::Config c = test::config(ranks);
  c.det = det;
  return c;
}

class ProbeDet : public ::testing::TestWithParam<bool> {};

TEST_P(ProbeDet, IprobeLoopEndsAtFirstPollAtOrAfterArrival) {
  for (int source : {1, MPI_ANY_SOURCE}) {
    int polls = 0, value = 0, count = -1, probed_source = -1;
    SimTime found = -1, received = -1;
    auto r = test::simulate(config(2, GetParam()), [&](int, char**) {
      MPI_Init(nullptr, nullptr);
      if (test::world_rank() == 0) {
        int flag = 0;
        MPI_Status st;
        while (!flag) {
          MPI_Iprobe(source, 3, MPI_COMM_WORLD, &flag, &st);
          ++polls;
        }
        found = MPISIM_Clock_ps();
        MPI_Get_count(&st, MPI_INT, &count);
        probed_source = st.MPI_SOURCE;
        MPI_Recv(&value, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        received = MPISIM_Clock_ps();
      } else {
        MPISIM_Compute(10e-6);
        int v = 77;
        MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
      }
      MPI_Finalize();
      return 0;
    });
    ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
    const SimTime failed = failed_polls(arrival(10'000'000, 4));
    EXPECT_EQ(polls, failed + 1) << "source " << source;
    EXPECT_EQ(found, failed * kPoll);
    EXPECT_EQ(received, failed * kPoll + kRecvOverhead);
    EXPECT_EQ(value, 77);
    EXPECT_EQ(count, 1);
    EXPECT_EQ(probed_source, 1);
  }
}

TEST_P(ProbeDet, IprobeAnySourceFindsEarliestArrivalNotHostOrder) {
  // Rank 1 sends late in simulated time but early in host order; rank 2 sends early in
  // simulated time but only after a wildcard receive that needs the time bound, i.e. late in
  // host order. Rank 0 is woken in between (its receive of tag 6 completes) with only rank 1's
  // message there: it must not report it before it knows nothing earlier can come.
  std::vector<int> order;
  SimTime first_found = -1;
  auto r = test::simulate(config(3, GetParam()), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      int x;
      MPI_Request q;
      MPI_Irecv(&x, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &q);
      MPISIM_Compute(60e-6);
      while (order.size() < 2) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &flag, &st);
        if (!flag) continue;
        if (order.empty()) first_found = MPISIM_Clock_ps();
        int v;
        MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT_EQ(v, 100 + st.MPI_SOURCE);
        order.push_back(st.MPI_SOURCE);
      }
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else if (me == 1) {
      int v = 101;
      MPI_Send(&v, 0, MPI_INT, 2, 0, MPI_COMM_WORLD);
      MPISIM_Compute(50e-6);
      MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
      MPI_Send(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    } else {
      MPI_Recv(nullptr, 0, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPISIM_Compute(20e-6);
      int v = 102;
      MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(order, (std::vector<int>{2, 1}));
  EXPECT_EQ(first_found, 60'000'000); // both had arrived by the first poll
}

TEST_P(ProbeDet, IprobeDoesNotReportWhatAnEarlierReceiveTakes) {
  // Rank 0's pending MPI_Irecv (from rank 1, or from any source) takes the first message; the
  // probe sees the second.
  for (int irecv_source : {1, MPI_ANY_SOURCE}) {
    int probed_count = -1, flag = -1;
    std::vector<int> first(1, 0), second(2, 0);
    auto r = test::simulate(config(2, GetParam()), [&](int, char**) {
      MPI_Init(nullptr, nullptr);
      if (test::world_rank() == 0) {
        MPI_Request q;
        MPI_Irecv(first.data(), 1, MPI_INT, irecv_source, 5, MPI_COMM_WORLD, &q);
        MPISIM_Compute(20e-6); // both messages have arrived
        MPI_Status st;
        MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, &st);
        MPI_Get_count(&st, MPI_INT, &probed_count);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Recv(second.data(), 2, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        int a = 1, b[2] = {2, 3};
        MPI_Send(&a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        MPI_Send(b, 2, MPI_INT, 0, 5, MPI_COMM_WORLD);
      }
      MPI_Finalize();
      return 0;
    });
    ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
    EXPECT_EQ(flag, 1) << irecv_source;
    EXPECT_EQ(probed_count, 2) << irecv_source;
    EXPECT_EQ(first, (std::vector<int>{1}));
    EXPECT_EQ(second, (std::vector<int>{2, 3}));
  }
}

TEST_P(ProbeDet, IprobeDoesNotReportWhatAPendingWildcardReceiveMayStillTake) {
  // Rank 1 sends a large message (tag 7, arriving at 61.1 us) then a small one (tag 5,
  // arriving at 1.204 us). Rank 0's pending MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) has taken
  // nothing by 10 us: it may still take either, so the probe for tag 5 says no. By 70 us the
  // receive has taken the large message and the probe sees the small one.
  constexpr int kLarge = 15'000; // ints: 60000 bytes, eager
  std::vector<int> flags;
  int taken_count = -1, probed_count = -1;
  auto r = test::simulate(config(2, GetParam()), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    std::vector<int> big(kLarge);
    if (test::world_rank() == 0) {
      MPI_Request q;
      MPI_Status st;
      MPI_Irecv(big.data(), kLarge, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &q);
      for (double t : {10e-6, 60e-6}) {
        MPISIM_Compute(t);
        int flag;
        MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, &st);
        flags.push_back(flag);
      }
      MPI_Get_count(&st, MPI_INT, &probed_count);
      MPI_Wait(&q, &st);
      MPI_Get_count(&st, MPI_INT, &taken_count);
      int v;
      MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      int v = 1;
      MPI_Send(big.data(), kLarge, MPI_INT, 0, 7, MPI_COMM_WORLD);
      MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(flags, (std::vector<int>{0, 1}));
  EXPECT_EQ(probed_count, 1);
  EXPECT_EQ(taken_count, kLarge);
}

TEST_P(ProbeDet, IprobeLooksPastTheMessageANamedReceiveTakes) {
  // A pending receive that names its source takes the first matching message from it, however
  // late that arrives (non-overtaking): the probe looks past it, in both modes alike. Under
  // latency the small message sent after the large one arrives first (under nic it waits for the
  // large one's bytes to leave the NIC).
  constexpr int kLarge = 15'000; // ints: 60000 bytes, eager, arriving at 61.1 us
  int flag = -1, tag = -1;
  mpisim::Config c = config(2, GetParam());
  c.machine.network = "latency";
  auto r = test::simulate(c, [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    std::vector<int> big(kLarge);
    if (test::world_rank() == 0) {
      MPI_Request q;
      MPI_Status st;
      MPI_Irecv(big.data(), kLarge, MPI_INT, 1, 7, MPI_COMM_WORLD, &q);
      MPISIM_Compute(10e-6);
      MPI_Iprobe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
      tag = st.MPI_TAG;
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      int v;
      MPI_Recv(&v, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      int v = 1;
      MPI_Send(big.data(), kLarge, MPI_INT, 0, 7, MPI_COMM_WORLD);
      MPI_Send(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(tag, 8);
}

INSTANTIATE_TEST_SUITE_P(Det, ProbeDet, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "det" : "nodet"; });

class ProbeRanks : public ::testing::TestWithParam<int> {};

TEST_P(ProbeRanks, ProbeAnySourceSizesTheReceive) {
  // Rank s sends s ints at s microseconds; rank 0 probes for each message, sizes its buffer
  // from the status and receives it. Probing costs nothing: the clock goes to the arrival.
  const int p = GetParam();
  std::vector<int> sources, counts, ok;
  std::vector<SimTime> after_probe, after_recv;
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      for (int i = 1; i < p; ++i) {
        MPI_Status st;
        MPI_Probe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st);
        after_probe.push_back(MPISIM_Clock_ps());
        int n = -1;
        MPI_Get_count(&st, MPI_INT, &n);
        std::vector<int> buf(static_cast<std::size_t>(n), -1);
        MPI_Recv(buf.data(), n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        after_recv.push_back(MPISIM_Clock_ps());
        sources.push_back(st.MPI_SOURCE);
        counts.push_back(n);
        std::vector<int> expect(static_cast<std::size_t>(n));
        std::iota(expect.begin(), expect.end(), st.MPI_SOURCE * 1000);
        ok.push_back(buf == expect);
      }
    } else {
      MPISIM_Compute(me * 1e-6);
      std::vector<int> data(static_cast<std::size_t>(me));
      std::iota(data.begin(), data.end(), me * 1000);
      MPI_Send(data.data(), me, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  ASSERT_EQ(sources.size(), static_cast<std::size_t>(p - 1));
  for (int s = 1; s < p; ++s) {
    const auto i = static_cast<std::size_t>(s - 1);
    EXPECT_EQ(sources[i], s);
    EXPECT_EQ(counts[i], s);
    EXPECT_TRUE(ok[i]) << s;
    const SimTime t = arrival(s * 1'000'000, 4 * s);
    EXPECT_EQ(after_probe[i], t);
    EXPECT_EQ(after_recv[i], t + kRecvOverhead);
  }
}

TEST_P(ProbeRanks, MprobeTakesTheMessageOutOfMatching) {
  // Each rank sends two messages of the same envelope to its right neighbour. Mprobe takes the
  // first: a receive with that envelope then gets the second, and Mrecv the first.
  const int p = GetParam();
  std::vector<int> got_first(static_cast<std::size_t>(p), -1),
      got_second(static_cast<std::size_t>(p), -1), null_source(static_cast<std::size_t>(p), 0),
      message_nulled(static_cast<std::size_t>(p), 0);
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const auto u = static_cast<std::size_t>(me);
    const int right = (me + 1) % p, left = (me + p - 1) % p;
    int a = me * 10 + 1, b = me * 10 + 2;
    MPI_Request sends[2];
    MPI_Isend(&a, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &sends[0]);
    MPI_Isend(&b, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &sends[1]);
    MPI_Message msg;
    MPI_Status st;
    MPI_Mprobe(left, 4, MPI_COMM_WORLD, &msg, &st);
    MPI_Recv(&got_second[u], 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Mrecv(&got_first[u], 1, MPI_INT, &msg, &st);
    message_nulled[u] = msg == MPI_MESSAGE_NULL;
    MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);
    // MPI_PROC_NULL: a message handle that receives nothing.
    MPI_Mprobe(MPI_PROC_NULL, 4, MPI_COMM_WORLD, &msg, &st);
    EXPECT_EQ(msg, MPI_MESSAGE_NO_PROC);
    int untouched = -7;
    MPI_Mrecv(&untouched, 1, MPI_INT, &msg, &st);
    EXPECT_EQ(untouched, -7);
    EXPECT_EQ(msg, MPI_MESSAGE_NULL);
    null_source[u] = st.MPI_SOURCE;
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  for (int me = 0; me < p; ++me) {
    const auto u = static_cast<std::size_t>(me);
    const int left = (me + p - 1) % p;
    EXPECT_EQ(got_first[u], left * 10 + 1);
    EXPECT_EQ(got_second[u], left * 10 + 2);
    EXPECT_EQ(message_nulled[u], 1);
    EXPECT_EQ(null_source[u], MPI_PROC_NULL);
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, ProbeRanks, ::testing::Values(1, 2, 3, 7, 16, 33));

TEST(Probe, ImprobeAndImrecvCompleteLikeAReceive) {
  // Improbe polls like Iprobe; Imrecv then receives the message as a receive posted at that
  // moment: a rendezvous message's data comes after the clear-to-send.
  constexpr int kBig = 100'000; // above the eager limit: rendezvous
  int polls = 0, flag = 0, count = -1;
  bool data_ok = false;
  SimTime found = -1, done = -1, sender_done = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    std::vector<char> buf(kBig, 0);
    if (test::world_rank() == 0) {
      MPI_Message msg = MPI_MESSAGE_NULL;
      MPI_Status st;
      while (!flag) {
        MPI_Improbe(1, 0, MPI_COMM_WORLD, &flag, &msg, &st);
        ++polls;
      }
      found = MPISIM_Clock_ps();
      MPI_Get_count(&st, MPI_CHAR, &count);
      MPI_Request q;
      MPI_Imrecv(buf.data(), kBig, MPI_CHAR, &msg, &q);
      MPI_Wait(&q, &st);
      done = MPISIM_Clock_ps();
      data_ok = buf.front() == 'x' && buf.back() == 'x';
    } else {
      std::fill(buf.begin(), buf.end(), 'x');
      MPI_Send(buf.data(), kBig, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      sender_done = MPISIM_Clock_ps();
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  const SimTime rts = kSendOverhead + kLatency; // request-to-send arrival
  const SimTime failed = failed_polls(rts);
  EXPECT_EQ(polls, failed + 1);
  EXPECT_EQ(found, failed * kPoll);
  EXPECT_EQ(count, kBig);
  EXPECT_TRUE(data_ok);
  // Matched when Imrecv is posted: clear-to-send back, data over.
  const SimTime t_match = found;
  EXPECT_EQ(done, t_match + 2 * kLatency + kBig * kPsPerByte + kRecvOverhead);
  EXPECT_EQ(sender_done, t_match + kLatency + kBig * kPsPerByte);
}

TEST(Probe, ProcNullIsFoundAtOnce) {
  int flag = 0, source = 0, tag = 0, count = -1;
  SimTime clock = -1;
  auto r = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Status st;
    MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st);
    source = st.MPI_SOURCE;
    tag = st.MPI_TAG;
    MPI_Get_count(&st, MPI_INT, &count);
    MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    clock = MPISIM_Clock_ps();
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(source, MPI_PROC_NULL);
  EXPECT_EQ(tag, MPI_ANY_TAG);
  EXPECT_EQ(count, 0);
  EXPECT_EQ(clock, 0);
}

TEST(Probe, ProbeOfAMessageNobodySendsIsADeadlock) {
  auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) MPI_Probe(1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Deadlock);
  ASSERT_FALSE(r.blocked.empty());
  EXPECT_NE(r.blocked[0].find("rank 0: blocked in MPI_Probe(source=1, tag=3"), std::string::npos)
      << r.blocked[0];
}

// A master hands out tasks and collects results with MPI_Iprobe(MPI_ANY_SOURCE) polling; the
// workers take different times. Run with and without deterministic mode: every answer of a
// probe, and so every clock, must be the same.
struct FarmResult {
  mpisim::RunSummary run;
  std::vector<int> result_sources;
  long sum = 0;
};

FarmResult farm(int p, bool det) {
  constexpr int kTasks = 40;
  FarmResult out;
  out.run = test::simulate(config(p, det), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    enum { kWork = 1, kResult = 2, kStop = 3 };
    if (me == 0 && p == 1) { // no workers: the master does the work itself
      for (int t = 0; t < kTasks; ++t)
        out.sum += long{t} * t;
    } else if (me == 0) {
      int next = 0, done = 0;
      for (int w = 1; w < p; ++w) {
        const int task = next < kTasks ? next++ : -1;
        MPI_Send(&task, 1, MPI_INT, w, task < 0 ? kStop : kWork, MPI_COMM_WORLD);
      }
      while (done < kTasks) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
          MPISIM_Compute(0.3e-6);
          continue;
        }
        long result;
        MPI_Recv(&result, 1, MPI_LONG, st.MPI_SOURCE, kResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        out.sum += result;
        out.result_sources.push_back(st.MPI_SOURCE);
        ++done;
        const int task = next < kTasks ? next++ : -1;
        MPI_Send(&task, 1, MPI_INT, st.MPI_SOURCE, task < 0 ? kStop : kWork, MPI_COMM_WORLD);
      }
    } else {
      for (;;) {
        int task;
        MPI_Status st;
        MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == kStop) break;
        MPISIM_Compute((1 + (task * 7 + me * 3) % 5) * 1e-6);
        long result = long{task} * task;
        MPI_Send(&result, 1, MPI_LONG, 0, kResult, MPI_COMM_WORLD);
      }
    }
    MPI_Finalize();
    return 0;
  });
  return out;
}

class Farm : public ::testing::TestWithParam<int> {};

TEST_P(Farm, IprobeMasterWorkerIsDeterministic) {
  const int p = GetParam();
  const FarmResult det = farm(p, true), nodet = farm(p, false);
  ASSERT_EQ(det.run.reason, mpilite::RunEnd::Finished) << det.run.message;
  ASSERT_EQ(nodet.run.reason, mpilite::RunEnd::Finished) << nodet.run.message;
  long expect = 0;
  for (int t = 0; t < 40; ++t)
    expect += long{t} * t;
  EXPECT_EQ(det.sum, expect);
  EXPECT_EQ(nodet.sum, expect);
  EXPECT_EQ(det.result_sources, nodet.result_sources);
  ASSERT_EQ(det.run.ranks.size(), nodet.run.ranks.size());
  for (std::size_t i = 0; i < det.run.ranks.size(); ++i)
    EXPECT_EQ(det.run.ranks[i].clock, nodet.run.ranks[i].clock) << "rank " << i;
  // And the same again: nothing depends on the host.
  const FarmResult again = farm(p, true);
  EXPECT_EQ(again.result_sources, det.result_sources);
  EXPECT_EQ(again.run.predicted, det.run.predicted);
}

INSTANTIATE_TEST_SUITE_P(Ranks, Farm, ::testing::Values(1, 2, 3, 7, 16, 33));

} // namespace
