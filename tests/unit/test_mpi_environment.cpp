// Environment calls: thread level, versions, error classes and strings, memory allocation,
// MPI_Pcontrol, one simulated clock for all ranks, MPI_Abort and the MPI-1 error handler calls.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000;

TEST(Environment, ThreadLevelAndVersions) {
  int provided = -1, queried = -1, main_thread = -1, version = -1, subversion = -1, len = -1;
  std::string library;
  auto r = test::simulate(test::config(1), [&](int argc, char** argv) {
    // Versions may be asked before MPI_Init.
    MPI_Get_version(&version, &subversion);
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(text, &len);
    library = text;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Query_thread(&queried);
    MPI_Is_thread_main(&main_thread);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(provided, MPI_THREAD_FUNNELED);
  EXPECT_EQ(queried, provided);
  EXPECT_EQ(main_thread, 1);
  EXPECT_EQ(version, 3);
  EXPECT_EQ(subversion, 1);
  EXPECT_EQ(library.rfind("mpisim ", 0), 0u) << library;
  EXPECT_EQ(len, static_cast<int>(library.size()));
}

TEST(Environment, ErrorClassesAndStrings) {
  const std::vector<std::pair<int, std::string>> known = {
      {MPI_SUCCESS, "MPI_SUCCESS"},
      {MPI_ERR_BUFFER, "MPI_ERR_BUFFER"},
      {MPI_ERR_RANK, "MPI_ERR_RANK"},
      {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE"},
      {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS"},
      {MPI_ERR_REQUEST, "MPI_ERR_REQUEST"},
      {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM"},
      {MPI_ERR_WIN, "MPI_ERR_WIN"},
      {MPI_T_ERR_MEMORY, "MPI_T_ERR_MEMORY"},
  };
  std::vector<int> classes, lengths_ok;
  std::vector<std::string> strings;
  int bad_class = -1, bad_string = -1;
  auto r = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (const auto& [code, name] : known) {
      int cls = -1, len = -1;
      char text[MPI_MAX_ERROR_STRING];
      MPI_Error_class(code, &cls);
      MPI_Error_string(code, text, &len);
      classes.push_back(cls);
      strings.push_back(text);
      lengths_ok.push_back(len == static_cast<int>(std::strlen(text)));
    }
    int cls;
    char text[MPI_MAX_ERROR_STRING];
    int len;
    bad_class = MPI_Error_class(12345, &cls);
    bad_string = MPI_Error_string(-3, text, &len);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  for (std::size_t i = 0; i < known.size(); ++i) {
    EXPECT_EQ(classes[i], known[i].first);
    EXPECT_EQ(strings[i].rfind(known[i].second + ": ", 0), 0u) << strings[i];
    EXPECT_EQ(lengths_ok[i], 1);
  }
  EXPECT_NE(strings[2].find("invalid rank"), std::string::npos);
  EXPECT_EQ(bad_class, MPI_ERR_ARG);
  EXPECT_EQ(bad_string, MPI_ERR_ARG);
}

TEST(Environment, AllocMemServesAsABsendBuffer) {
  int received = 0;
  bool written = false;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 0) {
      const int size = 1 << 20;
      char* mem = nullptr;
      MPI_Alloc_mem(size, MPI_INFO_NULL, &mem);
      std::memset(mem, 7, size);
      written = mem[size - 1] == 7;
      MPI_Buffer_attach(mem, size);
      int v = 55;
      MPI_Bsend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      void* b;
      int s;
      MPI_Buffer_detach(&b, &s);
      MPI_Free_mem(b);
    } else {
      MPI_Recv(&received, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_TRUE(written);
  EXPECT_EQ(received, 55);
}

TEST(Environment, PcontrolChangesNothing) {
  int code = -1;
  auto r = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    code = MPI_Pcontrol(2, "ignored");
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(code, MPI_SUCCESS);
  EXPECT_EQ(r.predicted, 0);
}

class WtimeRanks : public ::testing::TestWithParam<int> {};

TEST_P(WtimeRanks, WtimeIsOneGlobalClock) {
  // Rank s computes s * 10 us and sends its MPI_Wtime to rank 0, which sees the message arrive
  // exactly one message time later on its own MPI_Wtime: all clocks are one simulated time.
  const int p = GetParam();
  std::vector<SimTime> sent(static_cast<std::size_t>(p), -1), seen(static_cast<std::size_t>(p), -1);
  double tick = 0;
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    tick = MPI_Wtick();
    if (me == 0) {
      for (int s = 1; s < p; ++s) {
        double t;
        MPI_Recv(&t, 1, MPI_DOUBLE, s, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sent[static_cast<std::size_t>(s)] = std::llround(t * 1e12);
        seen[static_cast<std::size_t>(s)] = std::llround(MPI_Wtime() * 1e12);
      }
    } else {
      MPISIM_Compute(me * 10e-6);
      const double t = MPI_Wtime();
      MPI_Send(&t, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(tick, 1e-12);
  for (int s = 1; s < p; ++s) {
    const auto u = static_cast<std::size_t>(s);
    EXPECT_EQ(sent[u], s * 10'000'000);
    EXPECT_EQ(seen[u], sent[u] + kSendOverhead + kLatency + 8 * kPsPerByte + kRecvOverhead);
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, WtimeRanks, ::testing::Values(1, 2, 3, 7, 16, 33));

TEST(Environment, AbortEndsTheRunWithItsCode) {
  auto r = test::simulate(test::config(3), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 2) MPI_Abort(MPI_COMM_WORLD, 9);
    MPI_Recv(nullptr, 0, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Abort);
  EXPECT_EQ(r.exit_code, 9);
  EXPECT_NE(r.message.find("rank 2 called MPI_Abort(MPI_COMM_WORLD, 9)"), std::string::npos)
      << r.message;
}

TEST(Environment, Mpi1ErrhandlerCallsAreTheCommOnes) {
  MPI_Errhandler before = MPI_ERRHANDLER_NULL, after = MPI_ERRHANDLER_NULL, via_comm = 0;
  int code = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Errhandler_get(MPI_COMM_WORLD, &before);
    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_get(MPI_COMM_WORLD, &after);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &via_comm);
    int v = 0;
    code = MPI_Send(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(before, MPI_ERRORS_ARE_FATAL);
  EXPECT_EQ(after, MPI_ERRORS_RETURN);
  EXPECT_EQ(via_comm, MPI_ERRORS_RETURN);
  EXPECT_EQ(code, MPI_ERR_RANK);
}

} // namespace
