// A grid of nodes, each linked to its neighbours along every dimension: a mesh, or with
// wrap-around links a torus (and a ring, a torus of one dimension).
#pragma once

#include <vector>

#include "network_topology.hpp"

namespace mpisim {

/// Node = c0 + e0 * (c1 + e1 * c2) for coordinates c and extents e: the first dimension varies
/// fastest. Routing goes in dimension order, the shorter way round when the grid wraps.
class Grid : public NetworkTopology {
public:
  Grid(std::vector<int> extents, bool wraps);

  int nodes() const override { return nodes_; }
  std::string size() const override; ///< "4x4x2"
  int distance(int a, int b) const override;
  void distances_from(const std::vector<int>& sources, std::vector<int>& d) const override;
  int diameter() const override;
  std::string shape() const override; ///< " 4x4x2"
  void add_routed_links(int a, int b, std::vector<Link>& links) const override;

private:
  std::vector<int> neighbours(int node) const;

  std::vector<int> extents_;
  bool wraps_;
  int nodes_ = 1;
};

} // namespace mpisim
