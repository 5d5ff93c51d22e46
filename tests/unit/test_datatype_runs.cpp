// for_each_run: where a stretch of a type's packed data lies (a file view places data so),
// including a start inside an element and runs of consecutive elements that touch.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "datatype.hpp"

namespace {

using Runs = std::vector<std::pair<MPI_Aint, std::size_t>>;

Runs runs(const mpilite::Datatype& t, std::size_t skip, std::size_t bytes) {
  Runs out;
  mpilite::for_each_run(t, skip, bytes, [&](MPI_Aint at, std::size_t n) {
    out.push_back({at, n});
  });
  return out;
}

// Three blocks of two ints, 20 bytes apart: data at [0,8), [20,28), [40,48); extent 48.
mpilite::Datatype three_blocks() {
  return mpilite::make_hvector(3, 2, 20, *mpilite::builtin_datatype(MPI_INT));
}

TEST(DatatypeRuns, AStretchStartingInsideABlock) {
  EXPECT_EQ(runs(three_blocks(), 4, 12), (Runs{{4, 4}, {20, 8}}));
}

TEST(DatatypeRuns, RunsOfConsecutiveElementsThatTouchAreMerged) {
  // Byte 20 of the data is byte 4 of the last block (offset 44); element 1 starts at 48.
  EXPECT_EQ(runs(three_blocks(), 20, 12), (Runs{{44, 12}}));
  EXPECT_EQ(runs(three_blocks(), 24 * 2 + 8, 8), (Runs{{96 + 20, 8}}));
}

TEST(DatatypeRuns, AContiguousTypeIsOneRun) {
  EXPECT_EQ(runs(*mpilite::builtin_datatype(MPI_DOUBLE), 12, 100), (Runs{{12, 100}}));
  EXPECT_TRUE(runs(three_blocks(), 8, 0).empty());
}

} // namespace
