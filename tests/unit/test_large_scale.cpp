// Predicting runs larger than the host (docs/large-scale.md): folded memory shares its pages,
// sampled bodies stop after their threshold and charge their mean, nodes scale measured compute.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "folded_heap.hpp"
#include "machine_file.hpp"
#include "sim_harness.hpp"
#include "world.hpp"

namespace {

std::size_t requests_made = 0;

int late_barrier(int, char**) {
  MPI_Init(nullptr, nullptr);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == size - 1) MPISIM_Compute(1e-3);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == size - 1) requests_made = mpilite::World::try_get()->requests_made();
  MPI_Finalize();
  return 0;
}

TEST(RankMemory, ARankBlockedInABarrierHoldsItsReceiveOnly) {
  // Every rank but the last blocks in the dissemination barrier's first round that needs the
  // late rank, its send there complete and its receive pending. The send's request is freed as
  // it completes (what the barrier needs of it is its time), and a blocking collective needs no
  // request of its own, so the waiting ranks hold one request each, not three: at 100 000
  // ranks, 58 MB less.
  constexpr int kRanks = 64;
  const mpisim::RunSummary s = test::simulate(test::config(kRanks), late_barrier);
  ASSERT_EQ(s.reason, mpilite::RunEnd::Finished) << s.message;
  EXPECT_GE(s.predicted, mpilite::SimTime{1'000'000'000}); // the late rank's 1 ms
  EXPECT_GE(requests_made, std::size_t{kRanks - 1});
  EXPECT_LE(requests_made, std::size_t{kRanks - 1} + 2); // and the late rank's send and receive
}

TEST(Fold, RanksTakeTurnsOverTheSlotsOfARing) {
  constexpr std::size_t kMiB = 1 << 20;
  constexpr std::size_t kRing = 128 * kMiB; // a site's pages: 16 slots of 8 MiB
  constexpr int kSite = 7, kSlots = 64;     // 512 MiB of addresses: 64 slots of 8 MiB
  char* first[kSlots];                      // the first block of each holder
  for (int holder = 0; holder < kSlots; ++holder)
    ASSERT_TRUE(first[holder] =
                    static_cast<char*>(mpilite::fold_allocate(8 * kMiB, kSite, holder)));
  EXPECT_TRUE(mpilite::is_folded(first[0]) && mpilite::is_folded(first[1] + 100));
  EXPECT_FALSE(mpilite::is_folded(&kMiB));
  EXPECT_EQ(mpilite::folded_size(first[0]), 8 * kMiB);
  std::strcpy(first[0], "shared");
  for (int holder = 1; holder < kSlots; ++holder)
    EXPECT_NE(first[holder], first[0]) << holder; // up to 512 MiB, a slot per holder
  for (int holder = 1; holder < 16; ++holder)
    EXPECT_STRNE(first[holder], "shared") << holder; // with pages of their own for a ring
  EXPECT_STREQ(first[16], "shared");                 // then the ring wraps
  // The next holder takes the first slot's turn: the same block, the same pages.
  auto* again = static_cast<char*>(mpilite::fold_allocate(8 * kMiB, kSite, kSlots));
  EXPECT_EQ(again, first[0]);
  // A holder never gets a slot it holds: holder 0's second block is holder 1's slot.
  auto* second = static_cast<char*>(mpilite::fold_allocate(8 * kMiB, kSite, 0));
  EXPECT_EQ(second, first[1]);
  // Holding all of them, it gets an extra slot of its own.
  char* more[kSlots - 2];
  for (char*& m : more)
    ASSERT_TRUE(m = static_cast<char*>(mpilite::fold_allocate(8 * kMiB, kSite, 0)));
  auto* extra = static_cast<char*>(mpilite::fold_allocate(8 * kMiB, kSite, 0));
  for (int holder = 0; holder < kSlots; ++holder)
    EXPECT_NE(extra, first[holder]);
  // A block larger than the ring repeats the ring's pages within itself.
  auto* large = static_cast<char*>(mpilite::fold_allocate(kRing + 8 * kMiB, 9, 0));
  auto* other = static_cast<char*>(mpilite::fold_allocate(8 * kMiB, 8, 0));
  ASSERT_TRUE(large && other);
  std::strcpy(large + 4 * kMiB, "wrapped");
  EXPECT_STREQ(large + kRing + 4 * kMiB, "wrapped");
  EXPECT_STRNE(other, "shared"); // another site has its own pages
  // Releasing: only what the holder holds, once per block it holds there.
  EXPECT_FALSE(mpilite::fold_release(first[0], 3));
  EXPECT_TRUE(mpilite::fold_release(first[0], 0));
  EXPECT_FALSE(mpilite::fold_release(first[0], 0)); // released already
  EXPECT_TRUE(mpilite::fold_release(first[0], kSlots));
  EXPECT_EQ(mpilite::folded_size(first[0]), 0u); // no block lives there now
  EXPECT_TRUE(mpilite::fold_release(extra, 0));
  EXPECT_FALSE(mpilite::is_folded(nullptr));
  for (int holder = 1; holder < kSlots; ++holder)
    EXPECT_TRUE(mpilite::fold_release(first[holder], holder));
  EXPECT_TRUE(mpilite::fold_release(second, 0));
  for (char* m : more)
    EXPECT_TRUE(mpilite::fold_release(m, 0));
  EXPECT_TRUE(mpilite::fold_release(large, 0));
  EXPECT_TRUE(mpilite::fold_release(other, 0));
  auto* outside = static_cast<char*>(mpilite::fold_allocate(8 * kMiB, 8, -1));
  std::free(outside); // free() knows folded blocks (outside a rank the holder is -1)
  EXPECT_GE(mpilite::fold_stats().blocks, 2u * kSlots + 3);
}

TEST(Fold, AutoFoldsOnlyLargeBlocksOfRanksOwnCode) {
  mpisim::Config c = test::config(2);
  c.auto_shared_malloc = 1 << 20;
  const auto r = test::simulate(c, [](int, char**) {
    MPI_Init(nullptr, nullptr);
    void* large = std::malloc(2 << 20);
    void* small = std::malloc(1000);
    void* zeroed = std::calloc(1 << 20, 2);
    const int ok =
        mpilite::is_folded(large) && !mpilite::is_folded(small) && mpilite::is_folded(zeroed);
    std::free(large);
    std::free(small);
    std::free(zeroed);
    MPI_Finalize();
    return ok ? 0 : 1;
  });
  for (const auto& rank : r.ranks)
    EXPECT_EQ(rank.exit_code, 0) << rank.rank;
  void* outside = std::malloc(2 << 20); // not a rank: never folded
  EXPECT_FALSE(mpilite::is_folded(outside));
  std::free(outside);
}

int g_bodies[4];

int sampled_main(int, char**) {
  MPI_Init(nullptr, nullptr);
  const int me = test::world_rank();
  for (int i = 0; i < 10; ++i) {
    MPISIM_SAMPLE_LOCAL(5, 0.5) {
      MPISIM_Compute(1e-6 * (1 + i % 2));
      ++g_bodies[me];
    }
  }
  MPI_Finalize();
  return 0;
}

TEST(Sample, LocalSkipsAfterThresholdAndChargesMean) {
  std::memset(g_bodies, 0, sizeof g_bodies);
  const auto r = test::simulate(test::config(2), sampled_main);
  // 1 us and 2 us: relative deviation 1/3 < 0.5; the other 8 bodies charge the mean, 1.5 us.
  for (const auto& rank : r.ranks) {
    EXPECT_EQ(rank.clock, 15'000'000) << rank.rank;
    EXPECT_EQ(g_bodies[rank.rank], 2) << rank.rank;
  }
  ASSERT_EQ(r.sampling.size(), 1u);
  EXPECT_EQ(r.sampling[0].stats.count, 4u);
  EXPECT_EQ(r.sampling[0].stats.skipped, 16u);
  EXPECT_EQ(r.sampling[0].stats.mean(), 1'500'000);
  EXPECT_DOUBLE_EQ(r.sampling[0].stats.stddev(), 500'000.0);
}

TEST(Sample, OffRunsEveryBody) {
  std::memset(g_bodies, 0, sizeof g_bodies);
  mpisim::Config c = test::config(2);
  c.sampling = false;
  const auto r = test::simulate(c, sampled_main);
  for (const auto& rank : r.ranks) {
    EXPECT_EQ(rank.clock, 15'000'000) << rank.rank;
    EXPECT_EQ(g_bodies[rank.rank], 10) << rank.rank;
  }
}

TEST(Sample, StatsAreExact) {
  mpilite::SampleStats s;
  EXPECT_FALSE(s.enough(3, 1.0));
  s.add(10);
  EXPECT_FALSE(s.enough(3, 1.0)); // one sample has no deviation
  s.add(10);
  EXPECT_TRUE(s.enough(3, 0.0001)); // deviation 0
  s.add(13);
  EXPECT_EQ(s.mean(), 11); // 33 / 3
  EXPECT_TRUE(s.enough(3, 0));
}

TEST(SampleStats, AColdFirstSampleIsAWarmUpLeftOut) {
  mpilite::SampleStats s;
  s.add(70);
  s.add(10);
  EXPECT_TRUE(s.first_is_warmup()); // 70 > 2 * 10
  EXPECT_EQ(s.mean(), 10);
  EXPECT_FALSE(s.enough(5, 0.01)); // one sample after the warm-up
  s.add(10);
  EXPECT_TRUE(s.enough(5, 0.01));
  EXPECT_EQ(s.stddev(), 0.0);
}

TEST(SampleStats, AFirstSampleUpToTwiceTheOthersCounts) {
  mpilite::SampleStats s;
  s.add(20);
  s.add(10);
  s.add(10);
  EXPECT_FALSE(s.first_is_warmup()); // 20 is not more than 2 * 10
  EXPECT_EQ(s.mean(), 13);           // 40 / 3
}

TEST(SampleStats, MergedSummariesLeaveEachPartsWarmUpOut) {
  mpilite::SampleStats a, b, none;
  for (mpilite::SimTime t : {70, 10, 10})
    a.add(t);
  for (mpilite::SimTime t : {30, 10})
    b.add(t);
  none.merge(a);
  none.merge(b);
  EXPECT_EQ(none.count, 5u);
  EXPECT_EQ(none.warmups, 2u);
  EXPECT_EQ(none.mean(), 10);
  a.merge(b); // into stats that still hold their first sample
  EXPECT_EQ(a.warmups, 2u);
  EXPECT_EQ(a.mean(), 10);
}

TEST(NodeSpeed, DividesMeasuredCompute) {
  mpisim::MachineParams m = test::round_machine();
  m.ranks_per_node = 2;
  m.cpu_scale = 3;
  m.node_speeds = mpisim::parse_node_speeds("3:0.5, 0-1:2", "MPISIM_NODE_SPEED");
  ASSERT_EQ(m.node_speeds.size(), 2u);
  EXPECT_EQ(mpisim::format_node_speeds(m.node_speeds), "0-1:2, 3:0.5");
  EXPECT_EQ(m.compute_ps(1000, 0), 1'500'000); // node 0: 1000 ns x 3 / 2
  EXPECT_EQ(m.compute_ps(1000, 3), 1'500'000); // node 1
  EXPECT_EQ(m.compute_ps(1000, 4), 3'000'000); // node 2: speed 1
  EXPECT_EQ(m.compute_ps(1000, 7), 6'000'000); // node 3: half as fast
  // A machine file reads it back.
  const auto back = mpisim::parse_machine_text(mpisim::format_machine_file(m), "m.machine");
  EXPECT_EQ(back.node_speeds, m.node_speeds);
}

TEST(NodeSpeed, BadValuesAreNamed) {
  for (const char* bad : {"0-1", "1-0:2", "0:0", "0:-1", "a:2", "0-3:2, 2:1", "0:inf"}) {
    try {
      mpisim::parse_node_speeds(bad, "MPISIM_NODE_SPEED");
      ADD_FAILURE() << bad;
    } catch (const mpisim::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("MPISIM_NODE_SPEED="), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("allowed: uniform"), std::string::npos) << e.what();
    }
  }
}

} // namespace
