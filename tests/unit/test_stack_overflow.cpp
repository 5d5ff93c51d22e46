// A fiber that overflows its stack ends the process naming itself, with every guard layout:
// large frames used only at their low end (compiled with -fstack-clash-protection, as the
// wrappers compile user code) and unbounded recursion with zero-filled frames.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "overflow_guard.hpp"
#include "scheduler.hpp"

namespace {

using mpilite::StackPoolOptions;

constexpr std::size_t kStack = 16 * 1024;

__attribute__((noinline)) int large_frame(int n) {
  volatile char frame[312 * 1024];
  frame[0] = static_cast<char>(n);
  return frame[0];
}

__attribute__((noinline)) int zero_frames(int n) {
  volatile char frame[512] = {};
  return n > 0 ? zero_frames(n - 1) + frame[0] : 0;
}

void in_large_frame(void*) {
  large_frame(1);
}
void in_zero_frames(void*) {
  zero_frames(1 << 30);
}
void nothing(void*) {}

/// Runs `count` fibers; the one in slot `culprit` runs `entry`, the others return at once.
void run(std::size_t count, std::size_t culprit, void (*entry)(void*),
         const StackPoolOptions& options) {
  mpilite::set_overflow_rank_names(nullptr, kStack);
  mpilite::Scheduler sched(count, kStack, options);
  std::vector<mpilite::Task> tasks(count);
  // The culprit runs last, after its neighbours have used (and given back) their stacks.
  for (std::size_t i = 0; i < count; ++i)
    if (i != culprit) sched.spawn(tasks[i], i, &nothing, nullptr);
  sched.spawn(tasks[culprit], culprit, entry, nullptr);
  sched.run([] { return false; });
}

const char* const kNamed = "rank 6 overflowed its stack \\(16 KiB\\); set MPISIM_STACK";
const StackPoolOptions kMprotectEveryStack{.kernel_guard_regions = false};
// 16 stacks, 8 mappings: one guard page per 4 stacks (slots 0, 4, 8, 12); slot 6 is unguarded.
const StackPoolOptions kGuardPerBlock{.kernel_guard_regions = false, .mapping_budget = 8};

TEST(StackOverflowDeathTest, LargeFrameHitsTheGuardPageOfItsStack) {
  EXPECT_EXIT(run(8, 6, &in_large_frame, kMprotectEveryStack), testing::ExitedWithCode(3), kNamed);
}

TEST(StackOverflowDeathTest, LargeFrameHitsAKernelGuardRegion) {
  if (mpilite::StackPool(1, kStack).describe() != "kernel guard pages")
    GTEST_SKIP() << "the kernel has no guard regions (Linux 6.13)";
  EXPECT_EXIT(run(8, 6, &in_large_frame, {}), testing::ExitedWithCode(3), kNamed);
}

TEST(StackOverflowDeathTest, LargeFrameRunsIntoTheGuardOfItsBlock) {
  EXPECT_EXIT(run(16, 6, &in_large_frame, kGuardPerBlock), testing::ExitedWithCode(3), kNamed);
}

TEST(StackOverflowDeathTest, ZeroFilledRecursionRunsIntoTheGuardOfItsBlock) {
  EXPECT_EXIT(run(16, 6, &in_zero_frames, kGuardPerBlock), testing::ExitedWithCode(3), kNamed);
}

} // namespace
