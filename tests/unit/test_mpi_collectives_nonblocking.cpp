// Non-blocking collectives: they cost what the blocking ones cost, they progress while their rank
// computes or waits for something else, several may be outstanding on one communicator, and
// their requests work with MPI_Wait, MPI_Waitall and MPI_Test.
#include <algorithm>
#include <string>
#include <vector>

#include "collective_test_support.hpp"

namespace {

using colltest::Collectives;
using colltest::Ints;
using colltest::Results;
using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000; // test::round_machine(): 1 GB/s
constexpr double kBusySeconds = 1e-3;
constexpr SimTime kBusy = 1'000'000'000;

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

std::vector<SimTime> clocks_of(const mpisim::RunSummary& s) {
  std::vector<SimTime> c;
  for (const auto& r : s.ranks)
    c.push_back(r.clock);
  return c;
}

class NonblockingCollectives : public testing::TestWithParam<int> {};

/// A program that runs every collective with uneven compute between them, as blocking calls or
/// as non-blocking ones waited for at once; returns the run.
mpisim::RunSummary every_collective(int p, bool nonblocking, Results& res, bool det = true) {
  Collectives k;
  k.nonblocking = nonblocking;
  mpisim::Config config = test::config(p);
  config.det = det;
  return colltest::run(
      p,
      [&](int r) {
        auto work = [&](int step) { MPISIM_Compute(((r * 7 + step * 3) % 5) * 1e-7); };
        const int n = 700; // 2.8 KB per rank: the long algorithms where there are some
        Ints mine(at(n)), out(at(n * p)), counts(at(p), n), displs(at(p));
        for (int i = 0; i < n; ++i)
          mine[at(i)] = r + i;
        for (int j = 0; j < p; ++j)
          displs[at(j)] = j * n;
        Ints all(at(n * p));
        for (int j = 0; j < n * p; ++j)
          all[at(j)] = j;
        work(0);
        res.call(r, k.barrier());
        work(1);
        res.call(r, k.bcast(all.data(), 5000 < n * p ? 5000 : n * p, MPI_INT, p - 1));
        work(2);
        res.call(r, k.reduce(mine.data(), out.data(), n, MPI_INT, MPI_SUM, 0));
        work(3);
        res.call(r, k.allreduce(mine.data(), out.data(), n, MPI_INT, MPI_MAX));
        work(4);
        res.call(r, k.gather(mine.data(), n, MPI_INT, out.data(), n, MPI_INT, p / 2));
        res.call(r, k.gatherv(mine.data(), n, MPI_INT, out.data(), counts.data(), displs.data(),
                              MPI_INT, 0));
        work(5);
        res.call(r, k.scatter(all.data(), n, MPI_INT, mine.data(), n, MPI_INT, 0));
        res.call(r, k.scatterv(all.data(), counts.data(), displs.data(), MPI_INT, mine.data(), n,
                               MPI_INT, p - 1));
        work(6);
        res.call(r, k.allgather(mine.data(), n, MPI_INT, out.data(), n, MPI_INT));
        res.call(r, k.allgatherv(mine.data(), n, MPI_INT, out.data(), counts.data(), displs.data(),
                                 MPI_INT));
        work(7);
        res.call(r, k.alltoall(all.data(), n, MPI_INT, out.data(), n, MPI_INT));
        res.call(r, k.alltoall(all.data(), 2, MPI_INT, out.data(), 2, MPI_INT));
        res.call(r, k.alltoallv(all.data(), counts.data(), displs.data(), MPI_INT, out.data(),
                                counts.data(), displs.data(), MPI_INT));
        work(8);
        res.call(r, k.reduce_scatter_block(all.data(), mine.data(), n, MPI_INT, MPI_SUM));
        res.call(r, k.reduce_scatter(all.data(), mine.data(), counts.data(), MPI_INT, MPI_SUM));
        work(9);
        res.call(r, k.scan(mine.data(), out.data(), n, MPI_INT, MPI_SUM));
        res.call(r, k.exscan(mine.data(), out.data(), n, MPI_INT, MPI_SUM));
        res.check("rank ran to the end", r, Ints{1}, Ints{1});
      },
      config);
}

TEST_P(NonblockingCollectives, WaitedAtOnceTheyCostWhatBlockingOnesCost) {
  const int p = GetParam();
  Results blocking_res(p), nonblocking_res(p);
  const auto blocking = every_collective(p, false, blocking_res);
  const auto nonblocking = every_collective(p, true, nonblocking_res);
  blocking_res.verify();
  nonblocking_res.verify();
  EXPECT_EQ(clocks_of(blocking), clocks_of(nonblocking));
  ASSERT_EQ(blocking.ranks.size(), nonblocking.ranks.size());
  for (std::size_t i = 0; i < blocking.ranks.size(); ++i) {
    EXPECT_EQ(blocking.ranks[i].stats.comm, nonblocking.ranks[i].stats.comm) << "rank " << i;
    EXPECT_EQ(blocking.ranks[i].stats.wait, nonblocking.ranks[i].stats.wait) << "rank " << i;
    EXPECT_EQ(blocking.ranks[i].stats.msgs_sent, nonblocking.ranks[i].stats.msgs_sent)
        << "rank " << i;
  }
}

TEST_P(NonblockingCollectives, SameClocksWithoutDeterministicMode) {
  // Without deterministic mode every collective receive waits for the time bound before it
  // matches: the schedules' post times and the protocol's bounds must give the same result.
  const int p = GetParam();
  Results det_res(p), nondet_res(p);
  const auto det = every_collective(p, true, det_res, true);
  const auto nondet = every_collective(p, true, nondet_res, false);
  det_res.verify();
  nondet_res.verify();
  EXPECT_EQ(clocks_of(det), clocks_of(nondet));
}

/// Runs one collective on every rank, with rank `busy` computing 1 ms: after the collective
/// (`nonblocking` false: started and waited for at once, which costs what the blocking call
/// costs), or between starting it and waiting for it. Returns each rank's clock at the end.
template <class Start>
std::vector<SimTime> with_a_busy_rank(int p, int busy, bool nonblocking, Start start,
                                      Results& res) {
  std::vector<SimTime> done(at(p), -1);
  colltest::run(p, [&](int r) {
    MPI_Request q = MPI_REQUEST_NULL;
    res.call(r, start(r, &q));
    if (!nonblocking) res.call(r, MPI_Wait(&q, MPI_STATUS_IGNORE));
    if (r == busy) MPISIM_Compute(kBusySeconds);
    if (nonblocking) res.call(r, MPI_Wait(&q, MPI_STATUS_IGNORE));
    done[at(r)] = MPISIM_Clock_ps();
  });
  return done;
}

/// Every rank but `busy` ends where it ends when `busy` computes only after the collective; the
/// busy rank ends at exactly 1 ms (its part of the collective was done in the background).
template <class Start> void expect_progress_without(int p, int busy, Start start) {
  Results res(p);
  const auto reference = with_a_busy_rank(p, busy, false, start, res);
  const auto overlapped = with_a_busy_rank(p, busy, true, start, res);
  res.expect_calls_succeeded();
  ASSERT_EQ(overlapped.size(), at(p));
  for (int r = 0; r < p; ++r) {
    if (r == busy) {
      EXPECT_EQ(overlapped[at(r)], kBusy) << "busy rank " << r;
      continue;
    }
    EXPECT_EQ(overlapped[at(r)], reference[at(r)]) << "rank " << r << " (busy rank " << busy << ")";
    EXPECT_LT(overlapped[at(r)], kBusy / 10) << "rank " << r << " waited for the busy rank";
  }
}

TEST_P(NonblockingCollectives, IbcastProgressesWhileTheRootOrARelayComputes) {
  const int p = GetParam();
  if (p < 2) GTEST_SKIP() << "needs two ranks";
  for (int n : {100, 5000}) // binomial tree; scatter + allgather from 8 ranks
    for (int busy : {0, p / 2}) {
      std::vector<Ints> buffers(at(p));
      expect_progress_without(p, busy, [&](int r, MPI_Request* q) {
        Ints& b = buffers[at(r)];
        b.assign(at(n), r == 0 ? 42 : -1);
        return MPI_Ibcast(b.data(), n, MPI_INT, 0, MPI_COMM_WORLD, q);
      });
      for (int r = 0; r < p; ++r)
        EXPECT_EQ(buffers[at(r)], Ints(at(n), 42)) << "rank " << r << ", " << n << " ints";
    }
}

TEST(NonblockingCollectives, IbcastOnTwoRanksCostsOneMessage) {
  // Rank 0 starts the broadcast and computes; rank 1's receive completes at
  // o_s + L + n/B + o_r, long before rank 0 is done computing.
  Results res(2);
  std::vector<SimTime> after(2, -1);
  colltest::run(2, [&](int r) {
    Ints b(100, r == 0 ? 7 : 0);
    MPI_Request q;
    res.call(r, MPI_Ibcast(b.data(), 100, MPI_INT, 0, MPI_COMM_WORLD, &q));
    if (r == 0) MPISIM_Compute(kBusySeconds);
    res.call(r, MPI_Wait(&q, MPI_STATUS_IGNORE));
    after[at(r)] = MPISIM_Clock_ps();
    res.check("broadcast value", r, b, Ints(100, 7));
  });
  res.verify();
  EXPECT_EQ(after[1], kSendOverhead + kLatency + 400 * kPsPerByte + kRecvOverhead);
  EXPECT_EQ(after[0], kBusy);
}

/// Each rank's clock after `call` on `p` ranks, all starting at 0.
template <class Call> std::vector<SimTime> clocks_after(int p, Call call) {
  std::vector<SimTime> after(at(p), -1);
  Results res(p);
  colltest::run(p, [&](int r) {
    res.call(r, call(r));
    after[at(r)] = MPISIM_Clock_ps();
  });
  res.expect_calls_succeeded();
  return after;
}

TEST(NonblockingCollectives, BlockingCollectivesCostExactlyTheirMessages) {
  // docs/model.md: a send costs o_s; a receive completes at max(wait start, ts) + o_r with
  // ts = send time + o_s + L + n/B; a batch of sends is issued one after another. The NIC (the
  // default network) sends one message's n/B after another, and an eager send completes when
  // its bytes have left.
  const SimTime o_s = kSendOverhead, o_r = kRecvOverhead, L = kLatency;
  // Dissemination barrier on 4 ranks: two rounds of a 0-byte exchange.
  EXPECT_EQ(clocks_after(4, [](int) { return MPI_Barrier(MPI_COMM_WORLD); }),
            std::vector<SimTime>(4, 2 * (o_s + L + o_r)));
  // Binomial broadcast of 400 bytes from rank 0 on 4 ranks: 0 sends to 2 then to 1 (each send
  // w long at 0's NIC), 2 relays to 3.
  const SimTime w = 400 * kPsPerByte, T = L + w;
  EXPECT_EQ(clocks_after(4,
                         [](int) {
                           Ints b(100, 1);
                           return MPI_Bcast(b.data(), 100, MPI_INT, 0, MPI_COMM_WORLD);
                         }),
            (std::vector<SimTime>{2 * (o_s + w), 2 * (o_s + w) + L + o_r, o_s + T + o_r + o_s + w,
                                  2 * (o_s + T + o_r)}));
  // Allreduce of one int on 3 ranks: rank 0 folds into rank 1, which exchanges with rank 2,
  // then hands the result back to rank 0.
  const SimTime t = L + 4 * kPsPerByte;
  const SimTime folded = o_s + t + o_r;                            // rank 1 has 0's data
  const SimTime exchanged = std::max(folded + o_s, o_s + t) + o_r; // rank 1 has 2's
  const SimTime at_2 = std::max(o_s, folded + o_s + t) + o_r;      // rank 2 has 1's
  EXPECT_EQ(
      clocks_after(3,
                   [](int r) {
                     int in = r, out = -1;
                     return MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                   }),
      (std::vector<SimTime>{exchanged + o_s + t + o_r, exchanged + o_s + 4 * kPsPerByte, at_2}));
}

TEST_P(NonblockingCollectives, IallreduceAndIalltoallProgressWhileOneRankComputes) {
  const int p = GetParam();
  if (p < 2) GTEST_SKIP() << "needs two ranks";
  for (int n : {3, 3000}) // recursive doubling; Rabenseifner
    for (int busy : {0, p - 1}) {
      std::vector<Ints> in(at(p)), out(at(p));
      expect_progress_without(p, busy, [&](int r, MPI_Request* q) {
        in[at(r)].assign(at(n), r + 1);
        out[at(r)].assign(at(n), -1);
        return MPI_Iallreduce(in[at(r)].data(), out[at(r)].data(), n, MPI_INT, MPI_SUM,
                              MPI_COMM_WORLD, q);
      });
      for (int r = 0; r < p; ++r)
        EXPECT_EQ(out[at(r)], Ints(at(n), p * (p + 1) / 2)) << "rank " << r;
    }
  for (int n : {2, 100}) { // Bruck from 8 ranks; batches
    std::vector<Ints> in(at(p)), out(at(p));
    expect_progress_without(p, p / 2, [&](int r, MPI_Request* q) {
      in[at(r)].resize(at(n * p));
      for (int i = 0; i < n * p; ++i)
        in[at(r)][at(i)] = r * 100000 + i;
      out[at(r)].assign(at(n * p), -1);
      return MPI_Ialltoall(in[at(r)].data(), n, MPI_INT, out[at(r)].data(), n, MPI_INT,
                           MPI_COMM_WORLD, q);
    });
    for (int r = 0; r < p; ++r)
      for (int j = 0; j < p; ++j)
        EXPECT_EQ(out[at(r)][at(j * n)], j * 100000 + r * n) << "rank " << r << " from " << j;
  }
}

TEST_P(NonblockingCollectives, WaitOnIalltoallWhileAPointToPointReceiveIsOutstanding) {
  const int p = GetParam();
  Results res(p);
  colltest::run(p, [&](int r) {
    // The message this receive matches is sent only after the alltoall is waited for: the
    // alltoall must complete on its own.
    int token = -1;
    MPI_Request recv;
    res.call(r, MPI_Irecv(&token, 1, MPI_INT, (r + 1) % p, 5, MPI_COMM_WORLD, &recv));
    Ints send(at(p)), got(at(p), -1), want(at(p));
    for (int j = 0; j < p; ++j) {
      send[at(j)] = r * 1000 + j;
      want[at(j)] = j * 1000 + r;
    }
    MPI_Request all;
    res.call(r,
             MPI_Ialltoall(send.data(), 1, MPI_INT, got.data(), 1, MPI_INT, MPI_COMM_WORLD, &all));
    MPI_Status st;
    res.call(r, MPI_Wait(&all, &st));
    res.check("alltoall", r, got, want);
    res.check("request freed", r, Ints{all}, Ints{MPI_REQUEST_NULL});
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    res.check("empty status", r, Ints{st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR, count},
              Ints{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0});
    const int mine = 77 + r;
    res.call(r, MPI_Send(&mine, 1, MPI_INT, (r - 1 + p) % p, 5, MPI_COMM_WORLD));
    res.call(r, MPI_Wait(&recv, MPI_STATUS_IGNORE));
    res.check("token", r, Ints{token}, Ints{77 + (r + 1) % p});

    // The same with point-to-point and collective requests in one MPI_Waitall.
    MPI_Request reqs[3];
    int out = 100 + r, in = -1;
    res.call(r, MPI_Irecv(&in, 1, MPI_INT, (r - 1 + p) % p, 6, MPI_COMM_WORLD, &reqs[0]));
    res.call(r, MPI_Ialltoall(send.data(), 1, MPI_INT, got.data(), 1, MPI_INT, MPI_COMM_WORLD,
                              &reqs[1]));
    res.call(r, MPI_Isend(&out, 1, MPI_INT, (r + 1) % p, 6, MPI_COMM_WORLD, &reqs[2]));
    res.call(r, MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
    res.check("alltoall in a Waitall", r, got, want);
    res.check("message in a Waitall", r, Ints{in}, Ints{100 + (r - 1 + p) % p});
  });
  res.verify();
}

TEST_P(NonblockingCollectives, SeveralOutstandingOnOneCommunicatorCompleteInAnyWaitOrder) {
  const int p = GetParam();
  Results res(p);
  colltest::run(p, [&](int r) {
    const int long_n = 5000, short_n = 3, sum_n = 1003;
    Ints bcast(at(long_n), r == 0 ? 9 : -1);
    Ints mine(at(sum_n), r + 1), sum(at(sum_n), -1);
    Ints gathered(at(short_n * p), -1), mine3(at(short_n), r);
    Ints to_all(at(2 * p)), from_all(at(2 * p), -1);
    for (int j = 0; j < 2 * p; ++j)
      to_all[at(j)] = r * 1000 + j / 2;
    MPI_Request q[6];
    res.call(r, MPI_Ibcast(bcast.data(), long_n, MPI_INT, 0, MPI_COMM_WORLD, &q[0]));
    res.call(
        r, MPI_Iallreduce(mine.data(), sum.data(), sum_n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[1]));
    res.call(r, MPI_Ibarrier(MPI_COMM_WORLD, &q[2]));
    res.call(r, MPI_Iallgather(mine3.data(), short_n, MPI_INT, gathered.data(), short_n, MPI_INT,
                               MPI_COMM_WORLD, &q[3]));
    res.call(r, MPI_Ialltoall(to_all.data(), 2, MPI_INT, from_all.data(), 2, MPI_INT,
                              MPI_COMM_WORLD, &q[4]));
    Ints scanned(at(sum_n), -1);
    res.call(
        r, MPI_Iscan(mine.data(), scanned.data(), sum_n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[5]));
    // Ranks wait in different orders.
    if (r % 2 == 0) {
      for (int i = 5; i >= 0; --i)
        res.call(r, MPI_Wait(&q[i], MPI_STATUS_IGNORE));
    } else {
      res.call(r, MPI_Waitall(6, q, MPI_STATUSES_IGNORE));
    }
    res.check("ibcast", r, bcast, Ints(at(long_n), 9));
    res.check("iallreduce", r, sum, Ints(at(sum_n), p * (p + 1) / 2));
    Ints want_gathered, want_from_all;
    for (int j = 0; j < p; ++j) {
      want_gathered.insert(want_gathered.end(), at(short_n), j);
      want_from_all.push_back(j * 1000 + r);
      want_from_all.push_back(j * 1000 + r);
    }
    res.check("iallgather", r, gathered, want_gathered);
    res.check("ialltoall", r, from_all, want_from_all);
    res.check("iscan", r, scanned, Ints(at(sum_n), (r + 1) * (r + 2) / 2));
  });
  res.verify();
}

TEST_P(NonblockingCollectives, TestPollsAnIbarrierThatNoRankLeavesEarly) {
  const int p = GetParam();
  Results res(p);
  std::vector<SimTime> entered(at(p)), left(at(p));
  std::vector<int> polls(at(p));
  colltest::run(p, [&](int r) {
    MPISIM_Compute(r * 1e-6);
    entered[at(r)] = MPISIM_Clock_ps();
    MPI_Request q;
    res.call(r, MPI_Ibarrier(MPI_COMM_WORLD, &q));
    int flag = 0;
    while (!flag) {
      res.call(r, MPI_Test(&q, &flag, MPI_STATUS_IGNORE));
      if (!flag) {
        ++polls[at(r)];
        MPISIM_Compute(1e-7);
      }
    }
    left[at(r)] = MPISIM_Clock_ps();
    res.check("request freed", r, Ints{q}, Ints{MPI_REQUEST_NULL});
  });
  res.verify();
  const SimTime last = *std::max_element(entered.begin(), entered.end());
  for (int r = 0; r < p; ++r)
    EXPECT_GE(left[at(r)], last) << "rank " << r << " left the barrier early";
  if (p > 1) {
    EXPECT_GT(polls[0], 0) << "rank 0 entered first and had to poll";
  }
}

INSTANTIATE_TEST_SUITE_P(Collectives, NonblockingCollectives, testing::Values(1, 2, 3, 7, 16, 33),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "ranks";
                         });

} // namespace
