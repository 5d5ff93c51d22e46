// Interconnection topologies of a target machine: which nodes exist, how many links a message
// crosses between two of them (the distance of the topology's routing) and which links those are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mpisim {

enum class TopologyKind { FullyConnected, Ring, Mesh, Torus, Hypercube, FatTree, Multistage };

/// A topology as the user writes it ("torus:4x4x4", "mesh:2d", "hypercube", "fat-tree:4,3"):
/// a kind and its size, where a size of 0 means "as large as the ranks need".
struct TopologySpec {
  TopologyKind kind = TopologyKind::FullyConnected;
  int nodes = 0;           ///< fully-connected, ring: node count (0: as many as needed)
  std::vector<int> dims;   ///< mesh, torus: extent of each dimension (empty: auto)
  int dimensions = 1;      ///< mesh, torus with auto extents: how many dimensions (1-3)
  int arity = 0;           ///< fat-tree: k of a k-ary n-tree; multistage: switch radix
  int levels = 0;          ///< fat-tree: n; multistage: stages (0: as many as needed)
  int hypercube_order = 0; ///< hypercube: dimension (0: as many as needed)

  bool operator==(const TopologySpec&) const = default;
};

/// Parses "kind[:size]". Throws ConfigError naming `what` and the accepted forms.
TopologySpec parse_topology(const std::string& text, const std::string& what);

/// The text form of `spec`, which parse_topology reads back to the same spec.
std::string format_topology(const TopologySpec& spec);

/// The accepted forms, for help texts and error messages.
const char* topology_syntax();

/// A topology sized for a number of nodes. Nodes are numbered 0..nodes()-1; mesh and torus
/// coordinates have the first dimension varying fastest.
class Topology {
public:
  /// Sizes `spec` for at least `nodes_needed` nodes (auto sizes) or checks that its fixed size
  /// holds them. Throws ConfigError naming `what` when it does not.
  Topology(const TopologySpec& spec, int nodes_needed, const std::string& what);

  const TopologySpec& spec() const { return spec_; }
  int nodes() const { return nodes_; }
  /// Links crossed from node a to node b by the topology's routing (0 when a == b): dimension
  /// order on meshes, tori and hypercubes, up to the nearest common ancestor and down on fat
  /// trees, through every stage on a multistage switch.
  int distance(int a, int b) const;
  /// For every node, the smallest distance from any node of `sources` (0 for the sources).
  std::vector<int> distances_from(const std::vector<int>& sources) const;
  /// The largest distance between two nodes.
  int diameter() const;
  /// "torus 4x4x4 (64 nodes)".
  std::string describe() const;

  /// A directed link: the unit of bandwidth that flows share under contention.
  using Link = std::uint64_t;
  /// The links a message from node a to node b occupies (empty when a == b): the source node's
  /// injection link, the routed links of a direct network, the destination's ejection link.
  /// Fat trees and multistage switches are taken as non-blocking: only injection and ejection.
  std::vector<Link> route(int a, int b) const;

private:
  std::vector<int> coordinates(int node) const;
  std::vector<int> neighbours(int node) const;
  bool wraps() const;

  TopologySpec spec_;
  int nodes_ = 1;
  int stages_ = 0; ///< multistage: switch stages
};

} // namespace mpisim
