// Faults of a run that must be named, never hung on: simulated time past its limit, limits of
// the run, outputs that cannot be written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "ascii_timeline.hpp"
#include "config.hpp"
#include "output_paths.hpp"
#include "scratch_dir.hpp"
#include "sim_harness.hpp"
#include "switching.hpp"
#include "units.hpp"

namespace {

using mpilite::kTimeInfinity;
using mpilite::kTimeLimit;
using mpilite::SimTime;

constexpr SimTime kMax = std::numeric_limits<SimTime>::max();

TEST(TimeLimit, SaturatingArithmeticStopsAtInfinity) {
  EXPECT_EQ(mpilite::saturating_add(kTimeLimit, 1000), kTimeLimit + 1000);
  EXPECT_EQ(mpilite::saturating_add(kTimeLimit, kTimeLimit), kTimeInfinity);
  EXPECT_EQ(mpilite::saturating_add(kTimeInfinity - 1, 2), kTimeInfinity);
  EXPECT_EQ(mpilite::saturating_mul(3, kTimeLimit), kTimeInfinity);
  EXPECT_EQ(mpilite::saturating_mul(3, 7), 21);
  EXPECT_TRUE(mpilite::within_time_limit(2e18));
  EXPECT_FALSE(mpilite::within_time_limit(2.000001e18));
  EXPECT_FALSE(mpilite::within_time_limit(std::numeric_limits<double>::quiet_NaN()));
}

TEST(TimeLimit, HugeMessagesSaturateInsteadOfOverflowing) {
  // 2^64 - 1 bytes at 1 B/s is about 1.8e31 ps: far past any SimTime.
  EXPECT_EQ(mpisim::byte_time(std::numeric_limits<std::uint64_t>::max(), 1.0), kTimeInfinity);
  EXPECT_EQ(mpisim::byte_time(std::numeric_limits<std::uint64_t>::max(), 0.5), kTimeInfinity);
  mpisim::MachineParams m = test::round_machine();
  m.switching = mpisim::Switching::StoreAndForward;
  EXPECT_EQ(mpisim::switching_time(m, 1000, std::uint64_t{1} << 62), kTimeInfinity);
}

TEST(TimeLimit, SettingsPastTheLimitAreRefused) {
  EXPECT_EQ(mpisim::parse_time("2000000s", "MPISIM_LATENCY"), kTimeLimit);
  try {
    mpisim::parse_time("2000001s", "MPISIM_LATENCY");
    FAIL() << "accepted";
  } catch (const mpisim::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("too large (the largest time is 2000000 s, the limit of "
                                         "simulated time)"),
              std::string::npos)
        << e.what();
  }
}

TEST(TimeLimit, ComputePastTheLimitEndsTheRunNamingTheCall) {
  const auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPISIM_Compute(1.5e6);
    if (test::world_rank() == 1) MPISIM_Compute(1e6);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Limit);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.message, "rank 1: MPISIM_Compute(1e+06 s): simulated time would pass the limit of "
                       "2000000 s (23 days) (the rank is at 1500000.000000 s)");
}

TEST(TimeLimit, TimelineDrawsAnyClock) {
  mpisim::AsciiTimeline t(3);
  t.add(0, 0, kMax, mpisim::Activity::Compute); // would loop for ever doubling an overflowed width
  t.add(1, kMax / 2 + 1, kMax, mpisim::Activity::Wait);
  t.add(2, 0, 10, mpisim::Activity::Communicate);
  mpisim::AsciiTimeline merged(3);
  merged.merge(t.encode());
  const auto lines = merged.render(kMax);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1], "rank   0 |" + std::string(128, '#') + "|");
  EXPECT_EQ(lines[2], "rank   1 |" + std::string(64, ' ') + std::string(64, '.') + "|");
}

TEST(RunLimits, TimeLimitEndsAPollingRankWithItsReport) {
  mpisim::Config c = test::config(2);
  c.time_limit = 1'000'000'000; // 1 ms
  const auto r = test::simulate(c, [](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v = 0, done = 0;
    if (test::world_rank() == 0) {
      MPI_Request q;
      MPI_Irecv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
      while (!done)
        MPI_Test(&q, &done, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Limit);
  EXPECT_EQ(r.exit_code, mpisim::kLimitExitCode);
  EXPECT_EQ(r.message.rfind("MPISIM_TIME_LIMIT reached: rank 0 passed 1 ms of simulated time; "
                            "rank 0 was entering MPI_Test at simulated time 0.001000",
                            0),
            0u)
      << r.message;
  // The first test past 1 ms: 1 ms / 50 ns polls, each 50 ns.
  EXPECT_EQ(r.ranks[0].clock, 1'000'050'000);
}

std::string fresh_dir(const std::string& name) {
  return test::scratch_dir("faults", name);
}

TEST(Outputs, PathsAreCheckedBeforeTheRun) {
  const std::string dir = fresh_dir("paths");
  mpisim::Config c = test::config(1);
  c.trace_path = dir;
  EXPECT_THROW(mpisim::check_output_paths(c), mpisim::ConfigError);
  c.trace_path = dir + "/trace.json";
  c.comm_matrix_path = dir + "/missing/m.csv";
  try {
    mpisim::check_output_paths(c);
    FAIL() << "accepted";
  } catch (const mpisim::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "MPISIM_COMM_MATRIX=" + dir + "/missing/m.csv: the folder " +
                                         dir +
                                         "/missing does not exist; create it or choose "
                                         "another path");
  }
  c.comm_matrix_path.clear();
  c.record_path = dir + "/new/record";
  mpisim::check_output_paths(c);
  EXPECT_TRUE(std::filesystem::is_directory(c.record_path));
  std::filesystem::remove_all(dir);
}

TEST(Outputs, AnOutputThatFailsDoesNotLoseTheOthers) {
  const std::string dir = fresh_dir("keep");
  mpisim::Config c = test::config(2);
  c.comm_matrix_path = dir + "/gone/m.csv"; // the folder is missing when the run ends
  c.trace_path = dir + "/trace.json";
  const auto r = test::simulate(c, [](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Finished);
  ASSERT_EQ(r.output_errors.size(), 1u);
  EXPECT_EQ(r.output_errors[0], "cannot write the communication matrix to " + dir + "/gone/m.csv");
  EXPECT_TRUE(std::filesystem::file_size(c.trace_path) > 0);
  EXPECT_FALSE(r.timeline.empty());
  std::filesystem::remove_all(dir);
}

} // namespace
