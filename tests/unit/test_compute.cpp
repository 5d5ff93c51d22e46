// Compute charging: measured host CPU time, scaled, and explicit MPISIM_Compute.
#include <gtest/gtest.h>

#include <time.h>

#include <vector>

#include "sim_harness.hpp"

namespace {

std::int64_t thread_cpu_ps() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec) * 1000;
}

volatile double sink;

int busy_rank(int, char**) {
  MPI_Init(nullptr, nullptr);
  double x = 0;
  const int n = 200000 * (test::world_rank() + 1);
  for (int i = 0; i < n; ++i)
    x += i * 0.5;
  sink = x;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

TEST(Compute, MeasuredTimeIsOnlyTheRanksOwnCpuTime) {
  mpisim::Config c = test::config(4);
  c.cpu = mpisim::CpuMode::Measured;
  const std::int64_t before = thread_cpu_ps();
  const auto r = test::simulate(c, busy_rank);
  const std::int64_t used = thread_cpu_ps() - before;
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  std::int64_t charged = 0;
  for (const auto& rank : r.ranks) {
    EXPECT_GT(rank.stats.compute, 0) << rank.rank;
    charged += rank.stats.compute;
  }
  // Everything charged was spent by this thread during the run (none before it started).
  EXPECT_LE(charged, used);
}

TEST(Compute, ScaleMultipliesMeasuredTime) {
  // The same work charged at scale 1 and 1000: the scaled run's compute exceeds what the whole
  // unscaled run used, which only the factor can explain.
  mpisim::Config c = test::config(2);
  c.cpu = mpisim::CpuMode::Measured;
  const std::int64_t before = thread_cpu_ps();
  test::simulate(c, busy_rank);
  const std::int64_t unscaled_total = thread_cpu_ps() - before;
  c.machine.cpu_scale = 1000;
  const auto scaled = test::simulate(c, busy_rank);
  EXPECT_GT(scaled.ranks[1].stats.compute, unscaled_total);
}

TEST(Compute, OffChargesOnlyExplicitCompute) {
  const auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    double x = 0;
    for (int i = 0; i < 100000; ++i)
      x += i;
    sink = x;
    MPISIM_Compute(test::world_rank() * 3e-6);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.ranks[0].stats.compute, 0);
  EXPECT_EQ(r.ranks[1].stats.compute, 3'000'000);
  EXPECT_EQ(r.ranks[1].clock, 3'000'000);
}

} // namespace
