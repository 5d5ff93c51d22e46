// Persistent requests: MPI_Send_init and friends, MPI_Recv_init, MPI_Start, MPI_Startall. A
// persistent request is reusable: a wait leaves it valid and inactive, MPI_Start posts again.
#include <gtest/gtest.h>

#include <vector>

#include "sim_harness.hpp"

namespace {

using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000;

class PersistentRanks : public ::testing::TestWithParam<int> {};

TEST_P(PersistentRanks, RingExchangeReusesTheSameRequests) {
  // Every rank sends to its right and receives from its left with the same two persistent
  // requests, round after round; the buffer is refilled before each start.
  constexpr int kRounds = 5;
  const int p = GetParam();
  std::vector<int> bad(static_cast<std::size_t>(p), 0);
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const int right = (me + 1) % p, left = (me + p - 1) % p;
    int out = 0, in = -1;
    MPI_Request reqs[2];
    MPI_Recv_init(&in, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &reqs[1]);
    const MPI_Request handles[2] = {reqs[0], reqs[1]};
    int& errors = bad[static_cast<std::size_t>(me)];
    for (int round = 0; round < kRounds; ++round) {
      out = round * 1000 + me;
      MPI_Startall(2, reqs);
      MPI_Status st[2];
      MPI_Waitall(2, reqs, st);
      int count = -1;
      MPI_Get_count(&st[0], MPI_INT, &count);
      errors += in != round * 1000 + left;
      errors += st[0].MPI_SOURCE != left || st[0].MPI_TAG != 3 || count != 1;
      errors += reqs[0] != handles[0] || reqs[1] != handles[1]; // still valid
    }
    // Waiting on an inactive persistent request returns at once with the empty status.
    const SimTime before = MPISIM_Clock_ps();
    MPI_Status st;
    MPI_Wait(&reqs[0], &st);
    errors += st.MPI_SOURCE != MPI_ANY_SOURCE || st.MPI_TAG != MPI_ANY_TAG;
    errors += MPISIM_Clock_ps() != before || reqs[0] != handles[0];
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    errors += reqs[0] != MPI_REQUEST_NULL || reqs[1] != MPI_REQUEST_NULL;
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  for (int i = 0; i < p; ++i)
    EXPECT_EQ(bad[static_cast<std::size_t>(i)], 0) << "rank " << i;
  // Every round is one eager message per rank, all in step; a rank alone sends to itself, a
  // local copy that takes no time.
  const SimTime round = p == 1 ? 0 : kSendOverhead + kLatency + 4 * kPsPerByte + kRecvOverhead;
  for (const auto& rank : r.ranks)
    EXPECT_EQ(rank.clock, kRounds * round) << "rank " << rank.rank;
}

TEST_P(PersistentRanks, ProcNullStartsCompleteAtOnce) {
  const int p = GetParam();
  std::vector<int> sources(static_cast<std::size_t>(p), 0);
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v = 1;
    MPI_Request reqs[2];
    MPI_Send_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[1]);
    for (int round = 0; round < 3; ++round) {
      MPI_Startall(2, reqs);
      MPI_Status st[2];
      MPI_Waitall(2, reqs, st);
      sources[static_cast<std::size_t>(test::world_rank())] += st[1].MPI_SOURCE;
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  for (int s : sources)
    EXPECT_EQ(s, 3 * MPI_PROC_NULL);
  EXPECT_EQ(r.predicted, 0);
}

INSTANTIATE_TEST_SUITE_P(Ranks, PersistentRanks, ::testing::Values(1, 2, 3, 7, 16, 33));

TEST(Persistent, EverySendModeStartsTwice) {
  // Standard, buffered, synchronous and ready persistent sends, each started twice; the
  // receiver uses one persistent receive for all eight messages. The synchronous send completes
  // when the receiver's acknowledgement arrives (docs/model.md).
  std::vector<int> got;
  std::vector<SimTime> ssend_done;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) {
      std::vector<char> space(4 * (sizeof(int) + MPI_BSEND_OVERHEAD));
      MPI_Buffer_attach(space.data(), static_cast<int>(space.size()));
      int v = 0;
      MPI_Request reqs[4];
      MPI_Send_init(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]);
      MPI_Bsend_init(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[1]);
      MPI_Ssend_init(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[2]);
      MPI_Rsend_init(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[3]);
      for (int round = 0; round < 2; ++round)
        for (int k = 0; k < 4; ++k) {
          v = round * 10 + k;
          MPI_Start(&reqs[k]);
          MPI_Wait(&reqs[k], MPI_STATUS_IGNORE);
          if (k == 2) ssend_done.push_back(MPISIM_Clock_ps());
        }
      for (MPI_Request& q : reqs)
        MPI_Request_free(&q);
      void* b;
      int size;
      MPI_Buffer_detach(&b, &size);
    } else {
      int v = -1;
      MPI_Request q;
      MPI_Recv_init(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q);
      for (int i = 0; i < 8; ++i) {
        MPI_Start(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        got.push_back(v);
        if (i == 1 || i == 5) MPISIM_Compute(10e-6); // the synchronous send waits for this
      }
      MPI_Request_free(&q);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 3, 10, 11, 12, 13}));
  // Each synchronous send is matched when the receiver starts its receive after computing 10 us,
  // and completes one latency later. With o = send overhead and T = transfer of 4 bytes:
  // round 1: the receiver finishes #0 at o + T + o_r and #1 at o + T + 2 o_r (both had arrived).
  ASSERT_EQ(ssend_done.size(), 2u);
  const SimTime T = kLatency + 4 * kPsPerByte, compute = 10'000'000;
  const SimTime s1 = kSendOverhead + T + 2 * kRecvOverhead + compute + kLatency;
  EXPECT_EQ(ssend_done[0], s1);
  // Round 2: #3 is sent at s1 and received at s1 + o + T + o_r; #4 and #5 have arrived by then
  // and take one o_r each; the receiver computes, then matches #6.
  EXPECT_EQ(ssend_done[1], s1 + kSendOverhead + T + 3 * kRecvOverhead + compute + kLatency);
}

TEST(Persistent, StartingAnActiveRequestIsAnError) {
  int code = -1, not_persistent = -1;
  auto r = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v = 0;
    MPI_Request q;
    MPI_Recv_init(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q);
    MPI_Start(&q);
    code = MPI_Start(&q);
    MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Request_free(&q);
    MPI_Request plain;
    MPI_Isend(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &plain);
    not_persistent = MPI_Start(&plain);
    MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&plain, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(code, MPI_ERR_REQUEST);
  EXPECT_EQ(not_persistent, MPI_ERR_REQUEST);
}

TEST(Persistent, CancelAnActiveReceiveThenStartAgain) {
  int cancelled = -1, value = -1, again_cancelled = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) {
      MPI_Request q;
      MPI_Recv_init(&value, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &q);
      MPI_Start(&q);
      MPI_Cancel(&q); // rank 1 sends nothing before it hears from us
      MPI_Status st;
      MPI_Wait(&q, &st);
      MPI_Test_cancelled(&st, &cancelled);
      MPI_Send(nullptr, 0, MPI_INT, 1, 0, MPI_COMM_WORLD);
      MPI_Start(&q);
      MPI_Wait(&q, &st);
      MPI_Test_cancelled(&st, &again_cancelled);
      MPI_Request_free(&q);
    } else {
      MPI_Recv(nullptr, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int v = 44;
      MPI_Send(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(cancelled, 1);
  EXPECT_EQ(again_cancelled, 0);
  EXPECT_EQ(value, 44);
}

} // namespace
