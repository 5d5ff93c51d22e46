// ring[:N]: each node linked to the next and the last to the first; messages go the shorter way
// round. A one-dimensional torus that names only its node count.
#include <fmt/format.h>

#include "grid.hpp"
#include "topology_type.hpp"

namespace mpisim {
namespace {

using namespace topology_helpers;

class Ring final : public Grid {
public:
  explicit Ring(int nodes) : Grid({nodes}, /*wraps=*/true) {}

  std::string size() const override { return fmt::format("{}", nodes()); }
  std::string shape() const override { return {}; }
};

std::unique_ptr<const NetworkTopology> make(std::string_view size, int nodes_needed) {
  return std::make_unique<Ring>(node_count(size, nodes_needed));
}

} // namespace

extern constinit const TopologyType ring_topology{"ring", "ring[:N]",
                                                  topology_helpers::read_node_count, make};

} // namespace mpisim
