// Interconnection topologies of a target machine: which nodes exist, how many links a message
// crosses between two of them (the distance of the topology's routing) and which links those are.
// Each topology is a class of its own in topologies/, registered there by name
// (topologies/topology_type.hpp); docs/adding-a-topology.md shows how to add one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mpisim {

/// A topology as the user writes it ("torus:4x4x4", "mesh:2d", "hypercube", "fat-tree:4,3"):
/// the registered name of its kind and its size, which that kind reads itself. A size that is
/// missing or says only the shape ("2d") means "as large as the ranks need".
struct TopologySpec {
  std::string kind = "fully-connected"; ///< a registered name
  std::string size;                     ///< the size in its canonical text form ("" when none)

  bool operator==(const TopologySpec&) const = default;
};

/// Parses "kind[:size]". Throws ConfigError naming `what` and the accepted forms.
TopologySpec parse_topology(const std::string& text, const std::string& what);

/// The text form of `spec`, which parse_topology reads back to the same spec.
std::string format_topology(const TopologySpec& spec);

/// The accepted forms, for help texts and error messages: every registered topology's.
const char* topology_syntax();

/// What one topology class implements, for a topology already sized. Nodes are numbered
/// 0..nodes()-1. The callers (class Topology) handle a == b and single-node topologies, and add
/// the injection and ejection links of a route.
class NetworkTopology {
public:
  /// A directed link: the unit of bandwidth that flows share under contention.
  using Link = std::uint64_t;

  virtual ~NetworkTopology() = default;

  virtual int nodes() const = 0;
  /// The size as a spec writes it, fixed at this topology's size ("4x4x4"; "" for none).
  virtual std::string size() const = 0;
  /// Links crossed from node a to node b != a by the topology's routing.
  virtual int distance(int a, int b) const = 0;
  /// `d` holds 0 at the (at least one) sources and kUnreached elsewhere: sets every other node
  /// to its smallest distance from a source.
  virtual void distances_from(const std::vector<int>& sources, std::vector<int>& d) const = 0;
  /// The largest distance between two nodes, on two nodes or more.
  virtual int diameter() const = 0;
  /// What describe() prints between the kind and the node count (" 4x4x4"; "" for nothing).
  virtual std::string shape() const { return {}; }
  /// Appends the links routed from node a to node b != a between the source's injection link
  /// and the destination's ejection link: none on an indirect network taken as non-blocking.
  virtual void add_routed_links(int /*a*/, int /*b*/, std::vector<Link>& /*links*/) const {}

  static constexpr int kUnreached = 0x7fffffff;
};

/// A topology sized for a number of nodes: the registered class `spec` names, behind the parts
/// every topology shares. Copies share the (immutable) topology.
class Topology {
public:
  using Link = NetworkTopology::Link;

  /// Sizes `spec` for at least `nodes_needed` nodes (auto sizes) or checks that its fixed size
  /// holds them. Throws ConfigError naming `what` when it does not.
  Topology(const TopologySpec& spec, int nodes_needed, const std::string& what);

  /// The spec with the size fixed as sized here ("torus:3d" for 64 nodes gives "torus:4x4x4").
  TopologySpec spec() const { return {kind_, network_->size()}; }
  int nodes() const { return nodes_; }
  /// Links crossed from node a to node b by the topology's routing (0 when a == b): dimension
  /// order on meshes, tori and hypercubes, up to the nearest common ancestor and down on fat
  /// trees, through every stage on a multistage switch.
  int distance(int a, int b) const { return a == b ? 0 : network_->distance(a, b); }
  /// For every node, the smallest distance from any node of `sources` (0 for the sources).
  std::vector<int> distances_from(const std::vector<int>& sources) const;
  /// The largest distance between two nodes.
  int diameter() const { return nodes_ <= 1 ? 0 : network_->diameter(); }
  /// "torus 4x4x4 (64 nodes, diameter 6 links)".
  std::string describe() const;
  /// The links a message from node a to node b occupies (empty when a == b): the source node's
  /// injection link, the routed links of a direct network, the destination's ejection link.
  /// Fat trees and multistage switches are taken as non-blocking: only injection and ejection.
  std::vector<Link> route(int a, int b) const;

private:
  std::string kind_;
  std::shared_ptr<const NetworkTopology> network_;
  int nodes_ = 1;
};

} // namespace mpisim
