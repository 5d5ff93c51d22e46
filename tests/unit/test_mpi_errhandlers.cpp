// Error handlers of communicators: handlers of the program are called with the communicator and
// the code, are inherited by new communicators and outlive MPI_Errhandler_free while in use;
// MPI_ERRORS_RETURN, MPI_ERRORS_ARE_FATAL and MPI_ERRORS_ABORT hold per communicator.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sim_harness.hpp"

namespace {

/// Calls of `record_call`, per world rank (set by each test before it runs).
std::vector<std::vector<std::pair<MPI_Comm, int>>>* g_calls = nullptr;

void record_call(MPI_Comm* comm, int* code, ...) {
  int me = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me); // MPI may be used inside a handler
  (*g_calls)[static_cast<std::size_t>(me)].emplace_back(*comm, *code);
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

class ErrhandlersTest : public testing::TestWithParam<int> {};

TEST_P(ErrhandlersTest, HandlerOfTheProgramGetsTheCommAndTheCode) {
  const int size = GetParam();
  std::vector<std::vector<std::pair<MPI_Comm, int>>> calls(static_cast<std::size_t>(size));
  g_calls = &calls;
  struct Log {
    MPI_Comm dup = 0, half = 0; ///< the handles, kept after MPI_Comm_free nulls the variables
    int send_code = -1, call_code = -1, recv_code = -1, free_code = -1;
    MPI_Errhandler got = 0, after_free = 0;
  };
  std::vector<Log> logs(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    Log& log = logs[static_cast<std::size_t>(me)];
    MPI_Errhandler h;
    MPI_Comm_create_errhandler(record_call, &h);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, h);
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup); // inherits the handler
    MPI_Comm_split(dup, 0, 0, &half);
    log.dup = dup;
    log.half = half;
    MPI_Comm_get_errhandler(half, &log.got);
    MPI_Errhandler got = log.got;
    log.free_code = MPI_Errhandler_free(&got); // the reference get_errhandler gave
    MPI_Errhandler_free(&h);                   // and the program's own: still in use
    log.after_free = h;
    int v = 0;
    log.send_code = MPI_Send(&v, 1, MPI_INT, size, 0, dup);
    log.recv_code = MPI_Recv(&v, 1, MPI_INT, 0, -7, half, MPI_STATUS_IGNORE);
    log.call_code = MPI_Comm_call_errhandler(half, MPI_ERR_OTHER);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
  });
  g_calls = nullptr;
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const Log& log = logs[static_cast<std::size_t>(r)];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_NE(log.got, MPI_ERRHANDLER_NULL);
    EXPECT_NE(log.got, MPI_ERRORS_ARE_FATAL);
    EXPECT_EQ(log.free_code, MPI_SUCCESS);
    EXPECT_EQ(log.after_free, MPI_ERRHANDLER_NULL);
    EXPECT_EQ(log.send_code, MPI_ERR_RANK); // the handler returned, so the call returns the code
    EXPECT_EQ(log.recv_code, MPI_ERR_TAG);
    EXPECT_EQ(log.call_code, MPI_SUCCESS);
    EXPECT_EQ(calls[static_cast<std::size_t>(r)],
              (std::vector<std::pair<MPI_Comm, int>>{
                  {log.dup, MPI_ERR_RANK}, {log.half, MPI_ERR_TAG}, {log.half, MPI_ERR_OTHER}}));
  }
}

TEST_P(ErrhandlersTest, ErrorsReturnOnOneCommunicatorLeavesWorldFatal) {
  const int size = GetParam();
  std::vector<int> codes(static_cast<std::size_t>(size), -1);
  std::vector<MPI_Errhandler> world_handler(static_cast<std::size_t>(size), 0);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_handler[static_cast<std::size_t>(me)]);
    int v = 0;
    codes[static_cast<std::size_t>(me)] = MPI_Bcast(&v, 1, MPI_INT, size, dup);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == size - 1) MPI_Bcast(&v, 1, MPI_INT, -4, MPI_COMM_WORLD); // fatal
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(summary.reason, mpilite::RunEnd::FatalError);
  EXPECT_TRUE(contains(summary.message, "rank " + std::to_string(size - 1) +
                                            ": MPI_Bcast: MPI_ERR_ROOT: invalid root -4"))
      << summary.message;
  for (int r = 0; r < size; ++r) {
    EXPECT_EQ(codes[static_cast<std::size_t>(r)], MPI_ERR_ROOT) << "rank " << r;
    EXPECT_EQ(world_handler[static_cast<std::size_t>(r)], MPI_ERRORS_ARE_FATAL);
  }
}

INSTANTIATE_TEST_SUITE_P(Errhandlers, ErrhandlersTest, testing::Values(1, 2, 3, 7, 16, 33),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "ranks";
                         });

TEST(Errhandlers, CallErrhandlerWithTheDefaultHandlerIsFatal) {
  auto summary = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 1) MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_INTERN);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(summary.reason, mpilite::RunEnd::FatalError);
  EXPECT_NE(summary.exit_code, 0);
  EXPECT_TRUE(contains(summary.message, "rank 1: MPI_Comm_call_errhandler: MPI_ERR_INTERN"))
      << summary.message;
}

TEST(Errhandlers, ErrorsAbortEndsTheRun) {
  MPI_Errhandler got = MPI_ERRHANDLER_NULL;
  auto summary = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_ABORT);
    if (test::world_rank() == 1) {
      MPI_Comm_get_errhandler(dup, &got);
      int v = 0;
      MPI_Send(&v, 1, MPI_INT, 5, 0, dup);
    }
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(got, MPI_ERRORS_ABORT);
  EXPECT_EQ(summary.reason, mpilite::RunEnd::FatalError);
  EXPECT_NE(summary.exit_code, 0);
  EXPECT_TRUE(contains(summary.message, "rank 1: MPI_Send: MPI_ERR_RANK")) << summary.message;
}

TEST(Errhandlers, BadHandlesAreArgErrors) {
  std::vector<int> codes;
  auto summary = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    codes.push_back(MPI_Comm_set_errhandler(MPI_COMM_WORLD, static_cast<MPI_Errhandler>(0x9400ff)));
    MPI_Errhandler null_handler = MPI_ERRHANDLER_NULL;
    codes.push_back(MPI_Errhandler_free(&null_handler));
    MPI_Errhandler out;
    codes.push_back(MPI_Comm_create_errhandler(nullptr, &out));
    MPI_Errhandler predefined = MPI_ERRORS_RETURN;
    codes.push_back(MPI_Errhandler_free(&predefined)); // allowed: only the handle goes
    codes.push_back(predefined == MPI_ERRHANDLER_NULL ? MPI_SUCCESS : -1);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(codes,
            (std::vector<int>{MPI_ERR_ARG, MPI_ERR_ARG, MPI_ERR_ARG, MPI_SUCCESS, MPI_SUCCESS}));
}

} // namespace
