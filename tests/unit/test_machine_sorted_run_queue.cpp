// The NIC model's queue of turns: the same order as a binary heap, whatever order keys come in.
#include <gtest/gtest.h>

#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "sorted_run_queue.hpp"

using mpisim::SortedRunQueue;

TEST(SortedRunQueue, PopsInTheOrderOfAHeap) {
  // Mostly rising keys with a share pushed out of order, pops interleaved with pushes, and the
  // queue emptied now and then (the run starts again at the front).
  for (const int disorder : {0, 5, 50, 100}) {
    SortedRunQueue<long> q;
    std::priority_queue<long, std::vector<long>, std::greater<>> heap;
    std::mt19937_64 rng(static_cast<unsigned>(disorder));
    long next = 0;
    for (int step = 0; step < 200000; ++step) {
      const auto roll = rng() % 100;
      if (roll < 55 || heap.empty()) {
        next += static_cast<long>(rng() % 3);
        const long key = static_cast<int>(rng() % 100) < disorder
                             ? next - static_cast<long>(rng() % 1000)
                             : next;
        q.push(key);
        heap.push(key);
      } else if (roll < 99) {
        ASSERT_EQ(q.top(), heap.top()) << "disorder " << disorder << " step " << step;
        q.pop();
        heap.pop();
      } else {
        while (!heap.empty()) {
          ASSERT_EQ(q.top(), heap.top());
          q.pop();
          heap.pop();
        }
      }
      ASSERT_EQ(q.size(), heap.size());
      ASSERT_EQ(q.empty(), heap.empty());
    }
  }
}

TEST(SortedRunQueue, AKeyBelowTheRunComesOutFirst) {
  SortedRunQueue<int> q;
  for (const int k : {10, 20, 30, 5, 25, 40})
    q.push(k);
  std::vector<int> out;
  while (!q.empty()) {
    out.push_back(q.top());
    q.pop();
  }
  EXPECT_EQ(out, (std::vector<int>{5, 10, 20, 25, 30, 40}));
}
