// Buffered sends and the attached buffer: space accounting in simulated time, MPI_ERR_BUFFER
// when the buffer is too small, and MPI_Buffer_detach waiting for the buffered messages.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000;
constexpr int kBig = 100'000; // bytes, above the 64 KiB eager limit: travels by rendezvous

class BsendRanks : public ::testing::TestWithParam<int> {};

TEST_P(BsendRanks, RingOfLargeBufferedSends) {
  // Each rank buffers a large message to its right, receives from its left, then detaches.
  // The buffer holds exactly one message; the send completes at once.
  const int p = GetParam();
  std::vector<int> bad(static_cast<std::size_t>(p), 0);
  std::vector<SimTime> after_bsend(static_cast<std::size_t>(p), -1);
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const auto u = static_cast<std::size_t>(me);
    const int right = (me + 1) % p, left = (me + p - 1) % p;
    std::vector<char> space(kBig + MPI_BSEND_OVERHEAD);
    MPI_Buffer_attach(space.data(), static_cast<int>(space.size()));
    std::vector<char> out(kBig, static_cast<char>('a' + me % 26)), in(kBig, 0);
    MPI_Bsend(out.data(), kBig, MPI_CHAR, right, 0, MPI_COMM_WORLD);
    after_bsend[u] = MPISIM_Clock_ps();
    std::fill(out.begin(), out.end(), 0); // the data was buffered
    MPI_Recv(in.data(), kBig, MPI_CHAR, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad[u] += in.front() != 'a' + left % 26 || in.back() != 'a' + left % 26;
    void* b;
    int size;
    MPI_Buffer_detach(&b, &size);
    bad[u] += b != space.data() || size != static_cast<int>(space.size());
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  // Request-to-send at o + L, matched then (the receive was posted at o), clear-to-send and
  // data: the receive completes at o + 3L + n/B + o_r. The buffer was freed at o + 2L + n/B,
  // before the detach: the detach costs nothing. A rank alone sends to itself: a local copy, no
  // time at all.
  const bool alone = p == 1;
  for (int i = 0; i < p; ++i) {
    const auto u = static_cast<std::size_t>(i);
    EXPECT_EQ(bad[u], 0) << "rank " << i;
    EXPECT_EQ(after_bsend[u], alone ? 0 : kSendOverhead);
    EXPECT_EQ(r.ranks[u].clock,
              alone ? 0 : kSendOverhead + 3 * kLatency + kBig * kPsPerByte + kRecvOverhead);
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, BsendRanks, ::testing::Values(1, 2, 3, 7, 16, 33));

TEST(Bsend, DetachWaitsUntilTheMessagesAreTransmitted) {
  SimTime detached = -1, received = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    std::vector<char> data(kBig, 'z');
    if (test::world_rank() == 0) {
      std::vector<char> space(kBig + MPI_BSEND_OVERHEAD);
      MPI_Buffer_attach(space.data(), static_cast<int>(space.size()));
      MPI_Bsend(data.data(), kBig, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      void* b;
      int size;
      MPI_Buffer_detach(&b, &size);
      detached = MPISIM_Clock_ps();
    } else {
      MPISIM_Compute(50e-6);
      MPI_Recv(data.data(), kBig, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      received = MPISIM_Clock_ps();
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  const SimTime t_match = 50'000'000; // the receive is posted after the request-to-send came
  EXPECT_EQ(detached, t_match + kLatency + kBig * kPsPerByte);
  EXPECT_EQ(received, t_match + 2 * kLatency + kBig * kPsPerByte + kRecvOverhead);
}

TEST(Bsend, SpaceIsInUseUntilTransmittedThenReused) {
  // Room for two large messages. A third fails until the receiver has taken the first two.
  int third = -1, fourth = -1;
  std::string first_error;
  std::vector<char> got(3, 0);
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    std::vector<char> data(kBig);
    if (test::world_rank() == 0) {
      std::vector<char> space(2 * (kBig + MPI_BSEND_OVERHEAD));
      MPI_Buffer_attach(space.data(), static_cast<int>(space.size()));
      for (char c : {'1', '2'}) {
        std::fill(data.begin(), data.end(), c);
        MPI_Bsend(data.data(), kBig, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      }
      third = MPI_Bsend(data.data(), kBig, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(nullptr, 0, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::fill(data.begin(), data.end(), '3');
      fourth = MPI_Bsend(data.data(), kBig, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      void* b;
      int size;
      MPI_Buffer_detach(&b, &size);
    } else {
      for (int i = 0; i < 2; ++i) {
        MPI_Recv(data.data(), kBig, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        got[static_cast<std::size_t>(i)] = data.back();
      }
      MPI_Send(nullptr, 0, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(data.data(), kBig, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      got[2] = data.back();
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(third, MPI_ERR_BUFFER);
  EXPECT_EQ(fourth, MPI_SUCCESS);
  EXPECT_EQ(got, (std::vector<char>{'1', '2', '3'}));
}

TEST(Bsend, SmallMessagesLeaveTheBufferAtOnce) {
  // Eager buffered sends are transmitted when sent: a buffer for one small message serves many.
  std::vector<int> got;
  std::vector<int> codes;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (test::world_rank() == 0) {
      std::vector<char> space(sizeof(int) + MPI_BSEND_OVERHEAD);
      MPI_Buffer_attach(space.data(), static_cast<int>(space.size()));
      for (int i = 0; i < 10; ++i)
        codes.push_back(MPI_Bsend(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
      int two[2] = {0, 0}; // does not fit even once
      codes.push_back(MPI_Bsend(two, 2, MPI_INT, 1, 0, MPI_COMM_WORLD));
      void* b;
      int size;
      MPI_Buffer_detach(&b, &size);
    } else {
      for (int i = 0; i < 10; ++i) {
        int v;
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        got.push_back(v);
      }
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  std::vector<int> expect_codes(10, MPI_SUCCESS);
  expect_codes.push_back(MPI_ERR_BUFFER);
  EXPECT_EQ(codes, expect_codes);
  EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(Bsend, IbsendAndPersistentBsendCheckTheSpace) {
  int ibsend = -1, start = -1, start_after_detach = -1;
  auto r = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    std::vector<char> space(64 + MPI_BSEND_OVERHEAD);
    MPI_Buffer_attach(space.data(), static_cast<int>(space.size()));
    std::vector<char> data(65);
    MPI_Request q = MPI_REQUEST_NULL, p = MPI_REQUEST_NULL;
    ibsend = MPI_Ibsend(data.data(), 65, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &q);
    MPI_Bsend_init(data.data(), 64, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &p);
    start = MPI_Start(&p);
    MPI_Recv(data.data(), 64, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&p, MPI_STATUS_IGNORE);
    void* b;
    int size;
    MPI_Buffer_detach(&b, &size);
    start_after_detach = MPI_Start(&p); // no buffer attached any more
    MPI_Request_free(&p);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(ibsend, MPI_ERR_BUFFER);
  EXPECT_EQ(start, MPI_SUCCESS);
  EXPECT_EQ(start_after_detach, MPI_ERR_BUFFER);
}

TEST(Bsend, TooSmallBufferIsFatalByDefaultAndSaysWhy) {
  auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) {
      int v = 1;
      MPI_Bsend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_NE(r.message.find("rank 0: MPI_Bsend: MPI_ERR_BUFFER: buffered send of 4 bytes needs 100 "
                           "bytes of attached buffer, 0 of 0 free"),
            std::string::npos)
      << r.message;
}

} // namespace
