// BatchedAdvice: advice given in batches reaches every range, and a refused range is reported.
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>

#include "batched_advice.hpp"

namespace {

std::size_t page() {
  return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

TEST(BatchedAdvice, DropsEveryPageOfMoreRangesThanABatch) {
  // 2 500 ranges: two full batches given on add() and a partial one on flush().
  constexpr std::size_t kRanges = 2500;
  const std::size_t p = page();
  auto* base = static_cast<unsigned char*>(
      mmap(nullptr, 2 * kRanges * p, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(base, MAP_FAILED);
  for (std::size_t i = 0; i < 2 * kRanges; ++i)
    base[i * p] = 7;
  mpilite::BatchedAdvice drop(MADV_DONTNEED);
  for (std::size_t i = 0; i < kRanges; ++i) // every other page
    EXPECT_EQ(drop.add(base + 2 * i * p, p), 0);
  EXPECT_EQ(drop.flush(), 0);
  std::size_t dropped = 0, kept = 0;
  for (std::size_t i = 0; i < kRanges; ++i) {
    dropped += base[2 * i * p] == 0;
    kept += base[(2 * i + 1) * p] == 7;
  }
  EXPECT_EQ(dropped, kRanges);
  EXPECT_EQ(kept, kRanges);
  munmap(base, 2 * kRanges * p);
}

TEST(BatchedAdvice, NamesTheErrorOfARefusedRange) {
  const std::size_t p = page();
  auto* base = static_cast<unsigned char*>(
      mmap(nullptr, 3 * p, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(base, MAP_FAILED);
  munmap(base + p, p); // a hole: advice on it fails with ENOMEM
  base[0] = base[2 * p] = 7;
  mpilite::BatchedAdvice drop(MADV_DONTNEED);
  drop.add(base, p);
  drop.add(base + p, p);
  drop.add(base + 2 * p, p);
  EXPECT_EQ(drop.flush(), ENOMEM);
  EXPECT_EQ(base[0], 0); // the ranges around the hole were still given the advice
  EXPECT_EQ(base[2 * p], 0);
  munmap(base, p);
  munmap(base + 2 * p, p);
}

} // namespace
