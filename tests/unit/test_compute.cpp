// Compute charging: measured host CPU time, scaled, and explicit MPISIM_Compute.
#include <gtest/gtest.h>

#include <time.h>

#include <vector>

#include "rank.hpp"
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

// An OpenMP region's threads run on cores of their own while the rank has enough: the region
// lasts as long as its busiest thread, whichever thread that is (the master's clock alone would
// miss work done by the others); with fewer cores, the team's work shares them.
TEST(Compute, ARegionLastsAsItsBusiestThreadWhileEachHasACore) {
  mpisim::MachineParams m = test::round_machine(); // 1 ns of host CPU: 1000 ps
  m.cores_per_rank = 2;
  const auto region = [&](std::int64_t most_ns, std::int64_t total_ns) {
    return mpisim::Simulation::region_ps(m, {1, most_ns, total_ns, {}}, 0);
  };
  // 1 s of work on one thread of two (the other idle): as the same work on the master alone.
  EXPECT_EQ(region(1'000'000'000, 1'000'000'000), 1e12);
  // 2 s split evenly over two threads: 1 s.
  EXPECT_EQ(region(1'000'000'000, 2'000'000'000), 1e12);
  // Uneven: the busiest thread.
  EXPECT_EQ(region(1'500'000'000, 2'000'000'000), 1.5e12);
  // Four threads of 1 s on two cores: 2 s; on one core: 4 s.
  EXPECT_EQ(region(1'000'000'000, 4'000'000'000), 2e12);
  m.cores_per_rank = 1;
  EXPECT_EQ(region(1'000'000'000, 4'000'000'000), 4e12);
  EXPECT_EQ(region(1'000'000'000, 2'000'000'000), 2e12);
}

// The master thread's MPI call inside a region of two threads (funnelled) begins at the region's
// time at that point: its start, the fork, and the master's own work in its first phase; the
// call holds that phase up, and the region ends no earlier than the phase's busiest thread, the
// call, and the next phase. Driven through the hooks with given work: no real time is read.
TEST(Compute, AnMpiCallInsideARegionSeesTheRegionsTimeAndHoldsItsPhaseUp) {
  mpisim::Config c = test::config(1);
  c.cpu = mpisim::CpuMode::Measured;
  c.machine.fork_join = 1'000'000; // 1 us
  c.machine.cores_per_rank = 4;
  mpisim::Simulation sim(c);
  mpilite::Rank rank;
  // As region_begins leaves a rank at 5 us whose compute before the region was 2 us (and a
  // half ps, which the clock drops).
  rank.clock = 5'000'000;
  rank.compute_carried_ps = 2'000'000.5;
  rank.rare().region_start_clock = rank.clock;
  rank.rare().region_start_carried_ps = rank.compute_carried_ps;
  rank.region_threads = 2;

  // Phase 0: the master has worked 1 us when it calls.
  sim.region_call(rank, {2, 0, 0, {{0, 0, 1'000, 0}}});
  sim.enter_mpi(rank);
  EXPECT_EQ(rank.clock, 9'000'000); // 5 + 2 before + 1 fork + 1 of the master's work
  rank.clock += 4'000'000;          // the call takes 4 us
  sim.leave_mpi(rank);

  // Phase 0 ends with the master at 1.5 us of work and the other thread at 3 us; phase 1 takes
  // 2 us. The phase lasts the master's work and call, 5.5 us, more than the other's 3 us.
  rank.region_threads = 0;
  sim.region_ends(
      rank, {2, 3'000 + 2'000, 3'000 + 1'500 + 2'000 + 1'000, {{0, 3'000, 1'500, 4'000'000}}});
  // The next call charges the rest: 5 + 2 + 1 fork + 5.5 + 2 = 15.5 us.
  EXPECT_EQ(rank.compute_carried_ps, 2'500'000.5);
  EXPECT_EQ(rank.clock + static_cast<mpisim::SimTime>(rank.compute_carried_ps), 15'500'000);
  EXPECT_EQ(rank.stats.parallel_regions, 1);
}

// When the other threads' work is the longer, the call is hidden in it.
TEST(Compute, AnMpiCallShorterThanTheOtherThreadsWorkAddsNothing) {
  mpisim::MachineParams m = test::round_machine();
  m.cores_per_rank = 2;
  const mpilite::RegionWork with_call{2, 10'000, 12'000, {{0, 10'000, 1'000, 3'000'000}}};
  const mpilite::RegionWork without{2, 10'000, 12'000, {}};
  EXPECT_EQ(mpisim::Simulation::region_ps(m, with_call, 0), 10'000'000);
  EXPECT_EQ(mpisim::Simulation::region_ps(m, without, 0), 10'000'000);
}

} // namespace
