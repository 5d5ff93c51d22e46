// Errors of the target program: MPI error handlers, deadlocks, stack overflows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(Errors, InvalidRankIsFatalByDefaultAndNamesRankCallReason) {
  auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v = 0;
    if (test::world_rank() == 1) MPI_Send(&v, 1, MPI_INT, 5, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(contains(r.message, "rank 1: MPI_Send: MPI_ERR_RANK: invalid destination rank 5"))
      << r.message;
  EXPECT_TRUE(contains(r.message, "MPI_COMM_WORLD has 2 ranks")) << r.message;
}

TEST(Errors, ErrorsReturnGivesTheClassOfEachBadArgument) {
  std::vector<int> codes;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v = 0;
    if (test::world_rank() == 0) {
      codes.push_back(MPI_Send(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD));
      codes.push_back(MPI_Send(&v, 1, MPI_INT, 1, -5, MPI_COMM_WORLD));
      codes.push_back(MPI_Send(&v, -1, MPI_INT, 1, 0, MPI_COMM_WORLD));
      codes.push_back(MPI_Send(&v, 1, MPI_INT, 1, 0, static_cast<MPI_Comm>(0x12345)));
      codes.push_back(MPI_Send(&v, 1, static_cast<MPI_Datatype>(0x4c0000ff), 1, 0, MPI_COMM_WORLD));
      codes.push_back(
          MPI_Recv(&v, 1, MPI_INT, 1, MPI_ANY_TAG - 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      codes.push_back(MPI_Bcast(&v, 1, MPI_INT, 7, MPI_COMM_WORLD));
      codes.push_back(MPI_Allreduce(&v, &v, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD));
      codes.push_back(MPI_Send(nullptr, 3, MPI_INT, 1, 0, MPI_COMM_WORLD));
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(codes,
            (std::vector<int>{MPI_ERR_RANK, MPI_ERR_TAG, MPI_ERR_COUNT, MPI_ERR_COMM, MPI_ERR_TYPE,
                              MPI_ERR_TAG, MPI_ERR_ROOT, MPI_ERR_OP, MPI_ERR_BUFFER}));
}

TEST(Errors, TooSmallReceiveBufferIsTruncate) {
  int code = -1, received_bytes = -1;
  std::vector<int> got(2, 0);
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (test::world_rank() == 0) {
      int v[4] = {1, 2, 3, 4};
      MPI_Send(v, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
      MPI_Status st;
      code = MPI_Recv(got.data(), 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &received_bytes);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  EXPECT_EQ(code, MPI_ERR_TRUNCATE);
  EXPECT_EQ(received_bytes, 8);
  EXPECT_EQ(got, (std::vector<int>{1, 2}));
}

TEST(Errors, TruncateIsFatalByDefault) {
  auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v[4] = {1, 2, 3, 4};
    if (test::world_rank() == 0)
      MPI_Send(v, 4, MPI_INT, 1, 3, MPI_COMM_WORLD);
    else
      MPI_Recv(v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_TRUE(
      contains(r.message, "rank 1: MPI_Recv: MPI_ERR_TRUNCATE: message of 16 bytes from rank 0"))
      << r.message;
}

TEST(Errors, MutualSynchronousSendsAreADeadlockNamingBothRanks) {
  auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    int v = me;
    MPI_Ssend(&v, 1, MPI_INT, 1 - me, 0, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, 1 - me, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Deadlock);
  EXPECT_NE(r.exit_code, 0);
  ASSERT_EQ(r.blocked.size(), 2u);
  EXPECT_TRUE(
      contains(r.blocked[0], "rank 0: blocked in MPI_Ssend(dest=1, tag=0, comm=MPI_COMM_WORLD)"))
      << r.blocked[0];
  EXPECT_TRUE(
      contains(r.blocked[1], "rank 1: blocked in MPI_Ssend(dest=0, tag=0, comm=MPI_COMM_WORLD)"))
      << r.blocked[1];
}

TEST(Errors, WildcardReceiveNobodySendsIsADeadlock) {
  auto r = test::simulate(test::config(3), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v;
    if (test::world_rank() == 0)
      MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Deadlock);
  ASSERT_EQ(r.blocked.size(), 1u);
  EXPECT_TRUE(
      contains(r.blocked[0], "rank 0: blocked in MPI_Recv(source=MPI_ANY_SOURCE, tag=MPI_ANY_TAG"))
      << r.blocked[0];
}

TEST(Errors, AbortStopsWithItsCode) {
  auto r = test::simulate(test::config(4), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 2) MPI_Abort(MPI_COMM_WORLD, 17);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Abort);
  EXPECT_EQ(r.exit_code, 17);
  EXPECT_TRUE(contains(r.message, "rank 2 called MPI_Abort(MPI_COMM_WORLD, 17)")) << r.message;
}

int recurse(int depth) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  return depth > 0 ? recurse(depth - 1) + frame[0] : 0;
}

TEST(ErrorsDeathTest, StackOverflowInARankIsReportedAsSuch) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(test::simulate(test::config(2),
                             [](int, char**) {
                               MPI_Init(nullptr, nullptr);
                               if (test::world_rank() == 1) recurse(1 << 20);
                               MPI_Finalize();
                               return 0;
                             }),
              testing::ExitedWithCode(3), "rank 1 overflowed its stack.*set MPISIM_STACK");
}

} // namespace
