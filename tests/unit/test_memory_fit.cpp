// The refusal of ranks that cannot fit in memory, decided from the numbers alone.
#include <gtest/gtest.h>

#include "config.hpp"
#include "config_error.hpp"
#include "memory_fit.hpp"

namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

TEST(MemoryFit, RanksWithinTheAvailableMemoryFit) {
  const mpisim::RankFloor floor{1024, 4096, 0};
  EXPECT_FALSE(mpisim::ranks_do_not_fit(4'194'304, floor, 20 * kGiB));
}

TEST(MemoryFit, TooManyRanksAreRefusedNamingWhatTheyNeedAndWhatFits) {
  const mpisim::RankFloor floor{1024, 4096, 1024};
  const auto refusal = mpisim::ranks_do_not_fit(100'000'000, floor, 20 * kGiB);
  ASSERT_TRUE(refusal);
  // 100 000 000 x 6 KiB = 572.2 GiB; 20 GiB / 6 KiB = 3 495 253 ranks.
  EXPECT_NE(refusal->find("100000000 ranks per host process need at least 572.2 GiB"),
            std::string::npos)
      << *refusal;
  EXPECT_NE(refusal->find("(6.0 KiB each: 1.0 KiB of rank state, 4.0 KiB of stack, 1.0 KiB of "
                          "privatized globals)"),
            std::string::npos)
      << *refusal;
  EXPECT_NE(refusal->find("20.0 GiB available, enough for about 3495253 ranks"), std::string::npos)
      << *refusal;
}

TEST(MemoryFit, TheFloorCountsTheRankStateAndAStackPageThatHoldsIt) {
  const mpisim::RankFloor floor = mpisim::rank_floor(true);
  EXPECT_GT(floor.state, 256u);
  EXPECT_EQ(floor.state + floor.stack, 4096u);
}

TEST(MemoryFit, StateOnTheHeapComesBesideTheStackPage) {
  const mpisim::RankFloor floor = mpisim::rank_floor(false);
  EXPECT_GT(floor.state, 256u);
  EXPECT_EQ(floor.stack, 4096u);
}

TEST(MemoryFit, ACopiedStackCostsItsFramesAndItsPageTablesNotAPage) {
  const mpisim::RankFloor floor = mpisim::rank_floor(false, true, 256 << 10);
  EXPECT_GT(floor.state, 256u);
  // 512 bytes of frames, and a 4 KiB page-table page per 2 MiB of 256 KiB stacks.
  EXPECT_EQ(floor.stack, 512u + 512u);
  EXPECT_TRUE(floor.copied);
}

mpisim::Config config_for(int ranks) {
  std::string r = "MPISIM_RANKS=" + std::to_string(ranks);
  char* env[] = {r.data(), nullptr};
  return mpisim::Config::from_environment(env);
}

TEST(MemoryFit, AutoCopiesStacksOnlyWhereInPlaceTheyWouldTakeMostOfTheMemory) {
  // 600 000 ranks: in place, a page each (their state in it), 2.3 GiB.
  mpisim::Config roomy = config_for(600'000);
  ASSERT_FALSE(roomy.copy_stacks);
  mpisim::fit_ranks(roomy, 8 * kGiB, 1);
  EXPECT_FALSE(roomy.copy_stacks);
  EXPECT_TRUE(roomy.state_in_stack);
  mpisim::Config tight = config_for(600'000);
  // Into shared stacks, which need no kernel guard regions.
#if defined(MPISIM_ASAN)
  const bool can_copy = false;
#else
  const bool can_copy = true;
#endif
  if (can_copy) {
    mpisim::fit_ranks(tight, 2 * kGiB, 1); // 2.3 GiB is over three quarters of it
    EXPECT_TRUE(tight.copy_stacks);
    EXPECT_TRUE(tight.shared_stacks);
    EXPECT_FALSE(tight.state_in_stack); // a parked stack's pages hold no memory
  } else {
    // In place they do not fit at all, and nothing else is left.
    EXPECT_THROW(mpisim::fit_ranks(tight, 2 * kGiB, 1), mpisim::ConfigError);
    EXPECT_FALSE(tight.copy_stacks);
  }
  // Over two host processes, half as many ranks each: 1.1 GiB of 2 GiB, in place.
  mpisim::Config spread = config_for(600'000);
  mpisim::fit_ranks(spread, 2 * kGiB, 2);
  EXPECT_FALSE(spread.copy_stacks);
  // Asked for stacks in place, they stay so.
  mpisim::Config off = config_for(600'000);
  off.stack_copy = mpisim::StackCopy::Off;
  mpisim::fit_ranks(off, 2 * kGiB + kGiB / 2, 1);
  EXPECT_FALSE(off.copy_stacks);
}

TEST(MemoryFit, RanksThatDoNotFitEvenCopiedAreRefusedNamingTheCopiedStack) {
#if defined(MPISIM_ASAN)
  GTEST_SKIP() << "the sanitized build cannot copy stacks";
#else
  mpisim::Config c = config_for(600'000);
  try {
    mpisim::fit_ranks(c, kGiB / 2, 1);
    FAIL() << "600 000 ranks were let into 512 MiB";
  } catch (const mpisim::ConfigError& e) {
    EXPECT_TRUE(c.copy_stacks);
    const std::string what = e.what();
    EXPECT_NE(what.find("600000 ranks per host process need at least"), std::string::npos) << what;
    EXPECT_NE(what.find("1.0 KiB of stack copied out while blocked"), std::string::npos) << what;
  }
#endif
}

} // namespace
