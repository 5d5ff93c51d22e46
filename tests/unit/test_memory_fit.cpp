// The refusal of ranks that cannot fit in memory, decided from the numbers alone.
#include <gtest/gtest.h>

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

} // namespace
