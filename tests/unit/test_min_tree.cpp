// The tournament tree behind World::earliest_undecided.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "min_tree.hpp"

using mpilite::kTimeInfinity;
using mpilite::MinTree;
using mpilite::SimTime;

TEST(MinTree, EmptyAndUnsetAreInfinite) {
  EXPECT_EQ(MinTree().min(), kTimeInfinity);
  EXPECT_EQ(MinTree(5).min(), kTimeInfinity);
}

TEST(MinTree, AgreesWithAScanUnderRandomChanges) {
  // Sizes that are not powers of two have leaves on two levels; 1 has the root as its leaf.
  for (const std::size_t n : {1u, 2u, 3u, 5u, 17u, 1000u}) {
    MinTree tree(n);
    std::vector<SimTime> model(n, kTimeInfinity);
    std::mt19937_64 rng(n);
    for (int step = 0; step < 20000; ++step) {
      const std::size_t slot = rng() % n;
      // Few distinct times, so that raising the minimum's slot often leaves a tie elsewhere;
      // and slots going back to unset, as a rank's receives are matched.
      const SimTime t = rng() % 4 == 0 ? kTimeInfinity : static_cast<SimTime>(rng() % 50);
      tree.set(slot, t);
      model[slot] = t;
      ASSERT_EQ(tree.get(slot), t);
      ASSERT_EQ(tree.min(), *std::min_element(model.begin(), model.end()))
          << "n=" << n << " step=" << step;
    }
  }
}
