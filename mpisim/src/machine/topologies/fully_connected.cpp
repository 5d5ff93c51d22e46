// fully-connected[:N]: a link between every two nodes, so every message crosses one link.
#include <fmt/format.h>

#include "topology_type.hpp"

namespace mpisim {
namespace {

using namespace topology_helpers;

class FullyConnected final : public NetworkTopology {
public:
  explicit FullyConnected(int nodes) : nodes_(nodes) {}

  int nodes() const override { return nodes_; }
  std::string size() const override { return fmt::format("{}", nodes_); }
  int distance(int, int) const override { return 1; }
  void distances_from(const std::vector<int>&, std::vector<int>& d) const override {
    set_unreached(d, 1);
  }
  int diameter() const override { return 1; }

private:
  int nodes_;
};

std::unique_ptr<const NetworkTopology> make(std::string_view size, int nodes_needed) {
  return std::make_unique<FullyConnected>(node_count(size, nodes_needed));
}

} // namespace

extern constinit const TopologyType fully_connected_topology{
    "fully-connected", "fully-connected[:N]", topology_helpers::read_node_count, make};

} // namespace mpisim
