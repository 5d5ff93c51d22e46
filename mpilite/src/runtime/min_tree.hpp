// The smallest of n times, kept current as any one of them changes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim_time.hpp"

namespace mpilite {

/// A tournament tree over n slots, each holding a time (kTimeInfinity when unset): min() is the
/// smallest at once, and set() costs the levels whose minimum it changes, at most log2(n). Unlike
/// a heap of (time, slot) entries, a slot's old time leaves with its new one: nothing goes
/// stale, and nothing is pushed or popped per change.
class MinTree {
public:
  explicit MinTree(std::size_t n = 0) : n_(n), t_(2 * n, kTimeInfinity) {}

  void set(std::size_t slot, SimTime t) {
    std::size_t at = n_ + slot;
    if (t_[at] == t) return;
    t_[at] = t;
    // Node i holds the minimum of nodes 2i and 2i+1; the slots are nodes n..2n-1, so node 1
    // covers them all whatever n is. An ancestor changes only if its child did: a change
    // that leaves a minimum alone stops there (at a million ranks the tree has 20 levels).
    for (at >>= 1; at >= 1; at >>= 1) {
      const SimTime m = std::min(t_[2 * at], t_[2 * at + 1]);
      if (t_[at] == m) break;
      t_[at] = m;
    }
  }
  SimTime get(std::size_t slot) const { return t_[n_ + slot]; }
  /// The smallest time of any slot (kTimeInfinity: none set).
  SimTime min() const { return n_ == 0 ? kTimeInfinity : t_[1]; }

private:
  std::size_t n_;
  std::vector<SimTime> t_; ///< node i at t_[i]; t_[0] unused
};

} // namespace mpilite
