#include "host_lookaheads.hpp"

#include <algorithm>

namespace mpisim::protocols {

HostLookaheads::HostLookaheads(SimTime smallest, std::vector<std::vector<SimTime>> between)
    : smallest_(smallest), direct_(std::move(between)), paths_(direct_) {
  // A chain may pass through other hosts (a -> c -> b) and be shorter than the direct hop:
  // Floyd-Warshall over the hosts, which are few.
  const std::size_t n = paths_.size();
  for (std::size_t a = 0; a < n; ++a)
    paths_[a][a] = 0;
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b)
        paths_[a][b] = std::min(paths_[a][b], plus(paths_[a][c], paths_[c][b]));
}

SimTime HostLookaheads::direct(int a, int b) const {
  return direct_.empty() ? smallest_
                         : direct_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
}

SimTime HostLookaheads::path(int a, int b) const {
  if (a == b) return 0;
  return paths_.empty() ? smallest_
                        : paths_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
}

} // namespace mpisim::protocols
