// The lookahead between host processes: how long a message from an LP of one host takes, at
// least, to reach an LP of another. Nodes that never span two hosts make it longer than the
// network's smallest latency (often that of two ranks of one node), and every protocol that adds
// it (null messages, global rounds) promises more per exchange.
#pragma once

#include <vector>

#include "frames.hpp"
#include "local_bound.hpp"

namespace mpisim::protocols {

class HostLookaheads {
public:
  /// `smallest`: between any two LPs (> 0). `between[a][b]`: from an LP of host a to one of host
  /// b, each >= smallest (empty: `smallest` between every two hosts).
  HostLookaheads(SimTime smallest, std::vector<std::vector<SimTime>> between);

  SimTime smallest() const { return smallest_; }
  /// A message sent by an LP of host a to an LP of host b.
  SimTime direct(int a, int b) const;
  /// Any chain of messages that starts on host a and ends on host b, through any hosts (0 when
  /// a == b).
  SimTime path(int a, int b) const;

private:
  SimTime smallest_;
  std::vector<std::vector<SimTime>> direct_, paths_;
};

} // namespace mpisim::protocols
