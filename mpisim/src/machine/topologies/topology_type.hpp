// The registry of topologies: every topology class registers a TopologyType under its name (the
// "torus" of "torus:4x4x4"), with its syntax for help texts, the reader of its size text and its
// factory. Also the small helpers that several topologies share.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "network_topology.hpp"

namespace mpisim {

/// Thrown by a topology's size reader or factory: why the size text is not valid.
struct BadTopologySize {
  std::string reason;
};

struct TopologyType {
  std::string_view name;   ///< "torus"
  std::string_view syntax; ///< "torus[:AxB[xC] or :1d/:2d/:3d]", for help texts
  /// The canonical text of the size after the colon (std::nullopt: the text has no colon), which
  /// format_topology writes and this function returns unchanged. Throws BadTopologySize.
  std::string (*read_size)(std::optional<std::string_view> size);
  /// The topology of a canonical size text, sized for at least `nodes_needed` nodes when that
  /// size leaves the node count open (a fixed size too small is left for the caller to report).
  std::unique_ptr<const NetworkTopology> (*make)(std::string_view size, int nodes_needed);
};

/// Every registered topology, in the order help texts list them.
std::span<const TopologyType* const> topology_types();

/// The topology registered as `name`, or nullptr.
const TopologyType* find_topology_type(std::string_view name);

namespace topology_helpers {

inline constexpr int kMaxNodes = 1 << 24;

/// A positive integer up to kMaxNodes that fills all of `s`, or 0.
int whole(std::string_view s);

/// "4x4x2" or "4,3" split at `separator` into positive integers; empty on any bad part.
std::vector<int> numbers(std::string_view s, char separator);

/// Smallest e >= 1 with base^e >= n.
int levels_for(int base, int n);

/// base^exponent, stopping once above kMaxNodes.
long long power(int base, int exponent);

/// The "N" size of topologies that give only a node count: its canonical text ("" for none).
std::string read_node_count(std::optional<std::string_view> size);
/// The node count of a canonical "N" size, or `nodes_needed` when there is none.
int node_count(std::string_view size, int nodes_needed);

/// A size read back from its canonical text: "" is no size.
inline std::optional<std::string_view> size_or_none(std::string_view size) {
  return size.empty() ? std::nullopt : std::optional<std::string_view>(size);
}

// A link is the node it leaves and a port. Ports 0 and 1 are the node's injection and ejection
// links; a direct network numbers its own ports from kFirstRoutedPort.
inline constexpr NetworkTopology::Link kInjection = 0;
inline constexpr NetworkTopology::Link kEjection = 1;
inline constexpr NetworkTopology::Link kFirstRoutedPort = 2;
inline NetworkTopology::Link link(int node, NetworkTopology::Link port) {
  return (static_cast<NetworkTopology::Link>(node) << 8) | port;
}

/// Every node not yet reached at `distance`: for networks where all pairs are equally far.
void set_unreached(std::vector<int>& d, int distance);

/// Breadth-first search from the nodes at 0 over `neighbours(node)` (a vector of nodes): the
/// distances of a network whose routing takes shortest paths.
template <class Neighbours>
void breadth_first(const std::vector<int>& sources, std::vector<int>& d, Neighbours neighbours) {
  std::vector<int> frontier = sources;
  std::vector<int> next;
  // Level by level in the order nodes are found: the order of a FIFO queue.
  while (!frontier.empty()) {
    for (int n : frontier)
      for (int m : neighbours(n))
        if (d[static_cast<std::size_t>(m)] == NetworkTopology::kUnreached) {
          d[static_cast<std::size_t>(m)] = d[static_cast<std::size_t>(n)] + 1;
          next.push_back(m);
        }
    frontier.swap(next);
    next.clear();
  }
}

/// The "K[,N]" size of fat trees and multistage switches: switch arity or radix K >= 2, and
/// levels or stages N (0 when left to the ranks).
struct ArityLevels {
  int arity = 0;
  int levels = 0;
};
ArityLevels read_arity_levels(std::optional<std::string_view> size);
std::string format_arity_levels(const ArityLevels& size);
/// The canonical text of a "K[,N]" size (a TopologyType's read_size).
std::string read_arity_levels_size(std::optional<std::string_view> size);
/// A canonical "K[,N]" size with the levels filled in for `nodes_needed` nodes when left open.
ArityLevels sized_arity_levels(std::string_view size, int nodes_needed);

} // namespace topology_helpers
} // namespace mpisim
