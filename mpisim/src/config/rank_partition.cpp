#include "rank_partition.hpp"

#include <algorithm>
#include <cstdint>
#include <queue>

namespace mpisim {
namespace {

using Weight = std::int64_t;

/// A rank in a max-heap: the larger key first, then the lower rank, so that every host process
/// makes the same choices.
struct Candidate {
  Weight key;
  int rank;
  bool operator<(const Candidate& o) const { return key != o.key ? key < o.key : rank > o.rank; }
};
using Heap = std::priority_queue<Candidate>;

std::size_t at(int rank) {
  return static_cast<std::size_t>(rank);
}

/// The messages between `u` and `v` (0 when they exchanged none).
Weight between(const CommGraph& g, int u, int v) {
  const auto near = g.neighbours(u);
  const auto it = std::lower_bound(near.begin(), near.end(), v);
  return it != near.end() && *it == v ? g.weights(u)[static_cast<std::size_t>(it - near.begin())]
                                      : 0;
}

/// Greedy graph growing: host h takes, one at a time, the free rank with the most messages to the
/// ranks it already has (the lowest free rank when none has any) until it has `sizes[h]`; the
/// last host takes the rest.
std::vector<int> grow(const CommGraph& g, const std::vector<std::size_t>& sizes) {
  const int hosts = static_cast<int>(sizes.size());
  std::vector<int> host(at(g.ranks()), -1);
  std::vector<Weight> pull(at(g.ranks()), 0); // messages to the growing host, for free ranks
  std::vector<int> pulled;
  int lowest_free = 0;
  for (int h = 0; h + 1 < hosts; ++h) {
    Heap heap;
    for (std::size_t taken = 0; taken < sizes[at(h)]; ++taken) {
      int r = -1;
      while (r < 0 && !heap.empty()) {
        const Candidate c = heap.top();
        heap.pop();
        // An entry is stale once its rank is taken or pulled harder (a newer entry exists).
        if (host[at(c.rank)] < 0 && c.key == pull[at(c.rank)]) r = c.rank;
      }
      if (r < 0) {
        while (host[at(lowest_free)] >= 0)
          ++lowest_free;
        r = lowest_free;
      }
      host[at(r)] = h;
      const auto near = g.neighbours(r);
      const auto w = g.weights(r);
      for (std::size_t i = 0; i < near.size(); ++i) {
        const int u = near[i];
        if (host[at(u)] >= 0) continue;
        if (pull[at(u)] == 0) pulled.push_back(u);
        pull[at(u)] += w[i];
        heap.push({pull[at(u)], u});
      }
    }
    for (int u : pulled)
      pull[at(u)] = 0;
    pulled.clear();
  }
  std::replace(host.begin(), host.end(), -1, hosts - 1);
  return host;
}

/// Kernighan-Lin refinement: for each pair of hosts that share messages, swap a rank of one with a
/// rank of the other while the swap lowers the cut. A swap keeps every host's rank count, and
/// each lowers the cut, so it ends.
class Refiner {
public:
  Refiner(const CommGraph& g, std::vector<int>& host, int hosts)
      : g_(g), host_(host), hosts_(hosts), stamp_(at(g.ranks()), 0), to_a_(at(g.ranks())),
        to_b_(at(g.ranks())) {}

  void run() {
    constexpr int kMaxPasses = 16;
    for (int pass = 0; pass < kMaxPasses && one_pass(); ++pass) {
    }
  }

private:
  /// Refines every pair of hosts joined by a message; true when some swap was made.
  bool one_pass() {
    struct Border {
      int lo, hi, rank;
    };
    std::vector<Border> border; // ranks with a neighbour on another host, by pair of hosts
    std::vector<int> seen(at(hosts_), -1);
    for (int r = 0; r < g_.ranks(); ++r)
      for (int u : g_.neighbours(r)) {
        const int h = host_[at(u)], mine = host_[at(r)];
        if (h == mine || seen[at(h)] == r) continue;
        seen[at(h)] = r;
        border.push_back({std::min(h, mine), std::max(h, mine), r});
      }
    std::sort(border.begin(), border.end(), [](const Border& x, const Border& y) {
      return x.lo != y.lo ? x.lo < y.lo : x.hi != y.hi ? x.hi < y.hi : x.rank < y.rank;
    });
    bool improved = false;
    std::vector<int> ranks;
    for (std::size_t i = 0; i < border.size();) {
      std::size_t j = i;
      ranks.clear();
      for (; j < border.size() && border[j].lo == border[i].lo && border[j].hi == border[i].hi; ++j)
        ranks.push_back(border[j].rank);
      improved |= refine_pair(border[i].lo, border[i].hi, ranks);
      i = j;
    }
    return improved;
  }

  bool refine_pair(int a, int b, const std::vector<int>& ranks) {
    a_ = a;
    b_ = b;
    ++epoch_;
    Heap side[2]; // ranks on a (gain of moving to b), ranks on b (gain of moving to a)
    const auto offer = [&](int r) {
      const int h = host_[at(r)];
      if (h != a_ && h != b_) return;
      touch(r);
      side[h == a_ ? 0 : 1].push({gain(r), r});
    };
    for (int r : ranks)
      offer(r);
    bool improved = false;
    for (;;) {
      // The best swap among the few best ranks of each side: the pair's own messages lower a
      // swap's gain, so the two best ranks alone may not make the best swap.
      constexpr std::size_t kTop = 4;
      std::vector<int> top[2];
      for (int s = 0; s < 2; ++s)
        while (top[s].size() < kTop && !side[s].empty()) {
          const Candidate c = side[s].top();
          side[s].pop();
          // Stale entries: the rank moved, or its gain changed (offer() pushed the new one).
          if (host_[at(c.rank)] != (s == 0 ? a_ : b_) || c.key != gain(c.rank) ||
              std::find(top[s].begin(), top[s].end(), c.rank) != top[s].end())
            continue;
          top[s].push_back(c.rank);
        }
      Weight best = 0;
      int bu = -1, bv = -1;
      for (int u : top[0])
        for (int v : top[1]) {
          const Weight g = gain(u) + gain(v) - 2 * between(g_, u, v);
          if (g > best) {
            best = g;
            bu = u;
            bv = v;
          }
        }
      for (int s = 0; s < 2; ++s)
        for (int r : top[s])
          if (r != bu && r != bv) side[s].push({gain(r), r});
      if (bu < 0) return improved;
      move(bu, b_);
      move(bv, a_);
      for (int r : {bu, bv}) {
        offer(r);
        for (int u : g_.neighbours(r))
          offer(u);
      }
      improved = true;
    }
  }

  /// Messages of `r` to hosts a and b, computed when first needed in this pair, then kept up to
  /// date by move().
  void touch(int r) {
    if (stamp_[at(r)] == epoch_) return;
    stamp_[at(r)] = epoch_;
    Weight to_a = 0, to_b = 0;
    const auto near = g_.neighbours(r);
    const auto w = g_.weights(r);
    for (std::size_t i = 0; i < near.size(); ++i) {
      const int h = host_[at(near[i])];
      if (h == a_) to_a += w[i];
      if (h == b_) to_b += w[i];
    }
    to_a_[at(r)] = to_a;
    to_b_[at(r)] = to_b;
  }

  /// How much the cut drops if `r` moves to the other host of the pair.
  Weight gain(int r) const {
    return host_[at(r)] == a_ ? to_b_[at(r)] - to_a_[at(r)] : to_a_[at(r)] - to_b_[at(r)];
  }

  void move(int r, int to) {
    host_[at(r)] = to;
    const Weight sign = to == b_ ? 1 : -1;
    const auto near = g_.neighbours(r);
    const auto w = g_.weights(r);
    for (std::size_t i = 0; i < near.size(); ++i) {
      const std::size_t u = at(near[i]);
      if (stamp_[u] != epoch_) continue; // computed afresh when needed
      to_a_[u] -= sign * w[i];
      to_b_[u] += sign * w[i];
    }
  }

  const CommGraph& g_;
  std::vector<int>& host_;
  int hosts_;
  int a_ = 0, b_ = 0;
  unsigned epoch_ = 0;
  std::vector<unsigned> stamp_;
  std::vector<Weight> to_a_, to_b_;
};

} // namespace

std::vector<int> block_hosts(int ranks, int hosts) {
  std::vector<int> host(at(ranks));
  for (int r = 0; r < ranks; ++r)
    host[at(r)] = static_cast<int>(static_cast<long long>(r) * hosts / ranks);
  return host;
}

std::vector<int> partition_ranks(const CommGraph& graph, int hosts) {
  std::vector<int> block = block_hosts(graph.ranks(), hosts);
  if (hosts <= 1) return block;
  std::vector<std::size_t> sizes(at(hosts), 0);
  for (int h : block)
    ++sizes[at(h)];
  std::vector<int> grown = grow(graph, sizes);
  // Refining the block mapping too keeps the result no worse than block on graphs (a ring, a
  // 1-D stencil) where contiguous ranges are already the best cut and growing is not.
  Refiner(graph, block, hosts).run();
  Refiner(graph, grown, hosts).run();
  return graph.cut(grown) < graph.cut(block) ? grown : block;
}

} // namespace mpisim
