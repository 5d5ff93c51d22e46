// Completion of some of several requests (MPI_Waitany, MPI_Waitsome, MPI_Testany,
// MPI_Testsome), MPI_Request_free, MPI_Cancel and MPI_Request_get_status, in simulated time
// (docs/model.md, "Tests and polls").
#include <gtest/gtest.h>

#include <vector>

#include "sim_harness.hpp"

namespace {

using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000, kPoll = 50'000, kMicro = 1'000'000;

SimTime arrival(SimTime t, SimTime bytes) {
  return t + kSendOverhead + kLatency + bytes * kPsPerByte;
}

class CompletionRanks : public ::testing::TestWithParam<int> {};

TEST_P(CompletionRanks, WaitanyReturnsEarliestArrivalNotHostOrder) {
  // Rank s sends at (p - s) * 10 us: the highest rank's message arrives first although it is
  // the last receive posted and the last sender in host order.
  const int p = GetParam();
  std::vector<int> indices, values, sources;
  std::vector<SimTime> clocks;
  int final_index = 0;
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      std::vector<int> buf(static_cast<std::size_t>(p), -1);
      std::vector<MPI_Request> reqs(static_cast<std::size_t>(p - 1));
      for (int s = 1; s < p; ++s)
        MPI_Irecv(&buf[static_cast<std::size_t>(s)], 1, MPI_INT, s, 0, MPI_COMM_WORLD,
                  &reqs[static_cast<std::size_t>(s - 1)]);
      for (int k = 1; k < p; ++k) {
        int index;
        MPI_Status st;
        MPI_Waitany(p - 1, reqs.data(), &index, &st);
        indices.push_back(index);
        sources.push_back(st.MPI_SOURCE);
        values.push_back(buf[static_cast<std::size_t>(index + 1)]);
        clocks.push_back(MPISIM_Clock_ps());
        EXPECT_EQ(reqs[static_cast<std::size_t>(index)], MPI_REQUEST_NULL);
      }
      // Every request is null now: MPI_UNDEFINED.
      MPI_Waitany(p - 1, reqs.data(), &final_index, MPI_STATUS_IGNORE);
    } else {
      MPISIM_Compute((p - me) * 10e-6);
      int v = me * 11;
      MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  ASSERT_EQ(indices.size(), static_cast<std::size_t>(p - 1));
  for (int k = 0; k < p - 1; ++k) {
    const auto u = static_cast<std::size_t>(k);
    const int s = p - 1 - k; // senders in order of arrival
    EXPECT_EQ(indices[u], s - 1);
    EXPECT_EQ(sources[u], s);
    EXPECT_EQ(values[u], s * 11);
    EXPECT_EQ(clocks[u], arrival((p - s) * 10 * kMicro, 4) + kRecvOverhead);
  }
  EXPECT_EQ(final_index, MPI_UNDEFINED);
}

TEST_P(CompletionRanks, WaitsomeReturnsEverythingCompletedByTheFirstCompletionOrTheClock) {
  // Rank s sends at ((s - 1) / 2) * 10 us: messages arrive in pairs. Rank 0 first computes
  // 25 us, so its first MPI_Waitsome returns every message that arrived by then; later calls
  // return one pair each, at the pair's arrival.
  const int p = GetParam();
  std::vector<std::vector<int>> batches;
  std::vector<SimTime> clocks;
  std::vector<int> values(static_cast<std::size_t>(p), -1), sources(static_cast<std::size_t>(p));
  int undefined = 0;
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      std::vector<MPI_Request> reqs(static_cast<std::size_t>(p - 1));
      for (int s = 1; s < p; ++s)
        MPI_Irecv(&values[static_cast<std::size_t>(s)], 1, MPI_INT, s, 0, MPI_COMM_WORLD,
                  &reqs[static_cast<std::size_t>(s - 1)]);
      MPISIM_Compute(25e-6);
      int done = 0;
      while (done < p - 1) {
        int outcount;
        std::vector<int> idx(static_cast<std::size_t>(p));
        std::vector<MPI_Status> st(static_cast<std::size_t>(p));
        MPI_Waitsome(p - 1, reqs.data(), &outcount, idx.data(), st.data());
        batches.emplace_back(idx.begin(), idx.begin() + outcount);
        for (int k = 0; k < outcount; ++k)
          sources[static_cast<std::size_t>(idx[static_cast<std::size_t>(k)] + 1)] =
              st[static_cast<std::size_t>(k)].MPI_SOURCE;
        clocks.push_back(MPISIM_Clock_ps());
        done += outcount;
      }
      MPI_Waitsome(p - 1, reqs.data(), &undefined, nullptr, MPI_STATUSES_IGNORE);
    } else {
      MPISIM_Compute(((me - 1) / 2) * 10e-6);
      MPI_Send(&me, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  // The model, computed independently: sender s's message would arrive alone at its time; rank
  // 0's NIC delivers the 4 bytes of each pair's second message 4 ns after the first (ties go to
  // the lower sender), so s's arrives at a(s).
  std::vector<SimTime> delivered(static_cast<std::size_t>(p), 0);
  for (int s = 1; s < p; ++s) {
    const SimTime alone = arrival(((s - 1) / 2) * 10 * kMicro, 4);
    delivered[static_cast<std::size_t>(s)] =
        s == 1 ? alone
               : std::max(alone, delivered[static_cast<std::size_t>(s - 1)] + 4 * kPsPerByte);
  }
  auto a = [&](int s) { return delivered[static_cast<std::size_t>(s)]; };
  std::vector<std::vector<int>> expect_batches;
  std::vector<SimTime> expect_clocks;
  SimTime clock = 25 * kMicro;
  for (int s = 1; s < p;) {
    const SimTime t = std::max(clock, a(s));
    std::vector<int> batch;
    for (; s < p && a(s) <= t; ++s)
      batch.push_back(s - 1);
    clock = t + static_cast<SimTime>(batch.size()) * kRecvOverhead;
    expect_batches.push_back(batch);
    expect_clocks.push_back(clock);
  }
  EXPECT_EQ(batches, expect_batches);
  EXPECT_EQ(clocks, expect_clocks);
  for (int s = 1; s < p; ++s) {
    EXPECT_EQ(values[static_cast<std::size_t>(s)], s);
    EXPECT_EQ(sources[static_cast<std::size_t>(s)], s);
  }
  EXPECT_EQ(undefined, MPI_UNDEFINED);
}

TEST_P(CompletionRanks, TestsomeAndTestanyPollInSimulatedTime) {
  // Rank s sends at s * 3 us. Rank 0 polls with MPI_Testsome until it has everything: each
  // empty poll costs the poll overhead; each non-empty one returns what arrived by its clock.
  const int p = GetParam();
  std::vector<std::vector<int>> batches;
  std::vector<SimTime> poll_clocks;
  int any_flag = -1, any_index = -1;
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      std::vector<int> buf(static_cast<std::size_t>(p));
      std::vector<MPI_Request> reqs(static_cast<std::size_t>(p - 1));
      for (int s = 1; s < p; ++s)
        MPI_Irecv(&buf[static_cast<std::size_t>(s)], 1, MPI_INT, s, 0, MPI_COMM_WORLD,
                  &reqs[static_cast<std::size_t>(s - 1)]);
      int done = 0;
      while (done < p - 1) {
        int outcount;
        std::vector<int> idx(static_cast<std::size_t>(p));
        const SimTime before = MPISIM_Clock_ps();
        MPI_Testsome(p - 1, reqs.data(), &outcount, idx.data(), MPI_STATUSES_IGNORE);
        if (outcount == 0) continue;
        batches.emplace_back(idx.begin(), idx.begin() + outcount);
        poll_clocks.push_back(before);
        done += outcount;
      }
      // All null: flag true, MPI_UNDEFINED.
      MPI_Testany(p - 1, reqs.data(), &any_index, &any_flag, MPI_STATUS_IGNORE);
    } else {
      MPISIM_Compute(me * 3e-6);
      MPI_Send(&me, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  // Independent model: polls at clock c cost kPoll when empty; a non-empty poll charges one
  // receive overhead per message it returns.
  std::vector<std::vector<int>> expect_batches;
  std::vector<SimTime> expect_clocks;
  SimTime c = 0;
  for (int s = 1; s < p;) {
    std::vector<int> batch;
    for (; s < p && arrival(s * 3 * kMicro, 4) <= c; ++s)
      batch.push_back(s - 1);
    if (batch.empty()) {
      c += kPoll;
      continue;
    }
    expect_batches.push_back(batch);
    expect_clocks.push_back(c);
    c += static_cast<SimTime>(batch.size()) * kRecvOverhead;
  }
  EXPECT_EQ(batches, expect_batches);
  EXPECT_EQ(poll_clocks, expect_clocks);
  EXPECT_EQ(any_flag, 1);
  EXPECT_EQ(any_index, MPI_UNDEFINED);
}

INSTANTIATE_TEST_SUITE_P(Ranks, CompletionRanks, ::testing::Values(1, 2, 3, 7, 16, 33));

TEST(Completion, WaitanyTieGoesToLowestIndex) {
  // Two messages arrive at the same time (empty: no bytes to take turns at rank 0's NIC); the
  // receive of the higher source is index 0.
  std::vector<int> order;
  auto r = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      int a, b;
      MPI_Request reqs[2];
      MPI_Irecv(&a, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &reqs[0]);
      MPI_Irecv(&b, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[1]);
      for (int k = 0; k < 2; ++k) {
        int index;
        MPI_Waitany(2, reqs, &index, MPI_STATUS_IGNORE);
        order.push_back(index);
      }
    } else {
      MPI_Send(&me, 0, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(order, (std::vector<int>{0, 1}));
}

TEST(Completion, TestanyFindsTheFirstCompletionAtTheFirstPollAfterIt) {
  int polls = 0, index = -1, value = 0;
  SimTime done = -1;
  auto r = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 0) {
      int a = 0, b = 0, flag = 0;
      MPI_Request reqs[2];
      MPI_Irecv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]);
      MPI_Irecv(&b, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &reqs[1]);
      while (!flag) {
        MPI_Testany(2, reqs, &index, &flag, MPI_STATUS_IGNORE);
        ++polls;
      }
      done = MPISIM_Clock_ps();
      value = index == 1 ? b : a;
      MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    } else {
      MPISIM_Compute(me == 1 ? 30e-6 : 7e-6);
      int v = me * 5;
      MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  const SimTime failed = (arrival(7 * kMicro, 4) + kPoll - 1) / kPoll;
  EXPECT_EQ(index, 1);
  EXPECT_EQ(value, 10);
  EXPECT_EQ(polls, failed + 1);
  EXPECT_EQ(done, failed * kPoll + kRecvOverhead);
}

TEST(Completion, RequestGetStatusPollsWithoutFreeing) {
  int polls = 0, source = -1, count = -1, value = 0;
  bool handle_kept = false;
  SimTime found = -1, waited = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) {
      MPI_Request q;
      MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &q);
      int flag = 0;
      MPI_Status st;
      while (!flag) {
        MPI_Request_get_status(q, &flag, &st);
        ++polls;
      }
      found = MPISIM_Clock_ps();
      source = st.MPI_SOURCE;
      MPI_Get_count(&st, MPI_INT, &count);
      handle_kept = q != MPI_REQUEST_NULL;
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      waited = MPISIM_Clock_ps();
    } else {
      MPISIM_Compute(4e-6);
      int v = 31;
      MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  const SimTime failed = (arrival(4 * kMicro, 4) + kPoll - 1) / kPoll;
  EXPECT_EQ(polls, failed + 1);
  EXPECT_EQ(found, failed * kPoll);
  EXPECT_EQ(waited, failed * kPoll + kRecvOverhead); // the wait charges the completion
  EXPECT_TRUE(handle_kept);
  EXPECT_EQ(source, 1);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(value, 31);
}

TEST(Completion, RequestFreeLetsActiveOperationsComplete) {
  // A freed synchronous send of a large message still delivers it; a freed receive still takes
  // the message it matches, so the next receive gets the next one.
  constexpr int kBig = 100'000;
  static std::vector<int> freed_receive_buffer;
  freed_receive_buffer.assign(1, -1);
  std::vector<int> big(kBig, 0);
  int next = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) {
      std::vector<int> data(kBig);
      for (int i = 0; i < kBig; ++i)
        data[static_cast<std::size_t>(i)] = i;
      MPI_Request q;
      MPI_Issend(data.data(), kBig, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
      MPI_Request_free(&q);
      EXPECT_EQ(q, MPI_REQUEST_NULL);
      // The program knows the send is done when the receiver says so.
      MPI_Recv(nullptr, 0, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int a = 5, b = 6;
      MPI_Send(&a, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
      MPI_Send(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else {
      MPI_Request q;
      MPI_Irecv(freed_receive_buffer.data(), 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &q);
      MPI_Request_free(&q);
      MPI_Recv(big.data(), kBig, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(nullptr, 0, MPI_INT, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(&next, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  bool ok = true;
  for (int i = 0; i < kBig; ++i)
    ok = ok && big[static_cast<std::size_t>(i)] == i;
  EXPECT_TRUE(ok);
  EXPECT_EQ(freed_receive_buffer[0], 5);
  EXPECT_EQ(next, 6);
}

TEST(Completion, CancelReceiveThatNothingMatches) {
  // Nothing is ever sent with tag 99: the cancel succeeds, the wait returns at once.
  int cancelled = -1, later_cancelled = -1, value = -1;
  SimTime before = -1, after = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) {
      int unused = -1;
      MPI_Request q;
      MPI_Irecv(&unused, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &q);
      MPISIM_Compute(3e-6);
      before = MPISIM_Clock_ps();
      MPI_Cancel(&q);
      MPI_Status st;
      MPI_Wait(&q, &st);
      after = MPISIM_Clock_ps();
      MPI_Test_cancelled(&st, &cancelled);
      EXPECT_EQ(unused, -1);
      // A receive whose message has arrived is not cancelled.
      MPI_Send(nullptr, 0, MPI_INT, 1, 0, MPI_COMM_WORLD);
      MPI_Irecv(&value, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &q);
      MPISIM_Compute(20e-6);
      MPI_Cancel(&q);
      MPI_Wait(&q, &st);
      MPI_Test_cancelled(&st, &later_cancelled);
    } else {
      MPI_Recv(nullptr, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int v = 8;
      MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(cancelled, 1);
  EXPECT_EQ(before, 3 * kMicro);
  EXPECT_EQ(after, before);
  EXPECT_EQ(later_cancelled, 0);
  EXPECT_EQ(value, 8);
}

TEST(Completion, CancelUnmatchedSynchronousSendWithdrawsIt) {
  // Rank 1 never receives tag 7: the synchronous send would never complete, so MPI_Cancel
  // withdraws it and the wait returns. An eager standard send is complete at once: its cancel
  // has no effect and the message is received.
  int ssend_cancelled = -1, eager_cancelled = -1, probe_flag = -1, eager_value = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) {
      int v = 1;
      MPI_Request q;
      MPI_Status st;
      MPI_Issend(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &q);
      MPI_Cancel(&q);
      MPI_Wait(&q, &st);
      MPI_Test_cancelled(&st, &ssend_cancelled);
      int w = 2;
      MPI_Isend(&w, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &q);
      MPI_Cancel(&q);
      MPI_Wait(&q, &st);
      MPI_Test_cancelled(&st, &eager_cancelled);
    } else {
      MPI_Recv(&eager_value, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      // Tag 7 was withdrawn before the tag 8 message was sent.
      MPI_Iprobe(0, 7, MPI_COMM_WORLD, &probe_flag, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(ssend_cancelled, 1);
  EXPECT_EQ(eager_cancelled, 0);
  EXPECT_EQ(eager_value, 2);
  EXPECT_EQ(probe_flag, 0);
}

TEST(Completion, ErrorsOfSeveralRequestsAreInStatus) {
  // MPI_Waitsome with one truncated receive: MPI_ERR_IN_STATUS, and each status says which.
  int code = -1, outcount = -1;
  std::vector<int> errors(2, -1);
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (test::world_rank() == 0) {
      int small = 0, fits[2] = {0, 0};
      MPI_Request reqs[2];
      MPI_Irecv(&small, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]);
      MPI_Irecv(fits, 2, MPI_INT, 1, 1, MPI_COMM_WORLD, &reqs[1]);
      MPISIM_Compute(10e-6); // both have arrived: one call returns both
      int idx[2];
      MPI_Status st[2];
      code = MPI_Waitsome(2, reqs, &outcount, idx, st);
      for (int k = 0; k < outcount; ++k)
        errors[static_cast<std::size_t>(idx[k])] = st[k].MPI_ERROR;
    } else {
      int two[2] = {1, 2};
      MPI_Send(two, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
      MPI_Send(two, 2, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(code, MPI_ERR_IN_STATUS);
  EXPECT_EQ(outcount, 2);
  EXPECT_EQ(errors, (std::vector<int>{MPI_ERR_TRUNCATE, MPI_SUCCESS}));
}

TEST(Completion, OneFailedRequestOfWaitallIsInStatusOnItsCommunicator) {
  // MPI_Waitall and MPI_Testall of one truncated receive: MPI_ERR_IN_STATUS as MPICH returns
  // (not the receive's own error, as MPI_Wait gives), raised on the receive's communicator, which
  // returns errors while MPI_COMM_WORLD's handler stays fatal.
  int waitall = -1, testall = -1, wait = -1, status_error = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (test::world_rank() == 0) {
      int small = 0, flag = 0;
      MPI_Request q;
      MPI_Status st;
      MPI_Irecv(&small, 1, MPI_INT, 1, 0, dup, &q);
      waitall = MPI_Waitall(1, &q, &st);
      status_error = st.MPI_ERROR;
      MPI_Irecv(&small, 1, MPI_INT, 1, 1, dup, &q);
      do
        testall = MPI_Testall(1, &q, &flag, &st);
      while (!flag);
      MPI_Irecv(&small, 1, MPI_INT, 1, 2, dup, &q);
      wait = MPI_Wait(&q, &st);
    } else {
      int two[2] = {1, 2};
      for (int tag = 0; tag < 3; ++tag)
        MPI_Send(two, 2, MPI_INT, 0, tag, dup);
    }
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(waitall, MPI_ERR_IN_STATUS);
  EXPECT_EQ(status_error, MPI_ERR_TRUNCATE);
  EXPECT_EQ(testall, MPI_ERR_IN_STATUS);
  EXPECT_EQ(wait, MPI_ERR_TRUNCATE);
}

} // namespace
