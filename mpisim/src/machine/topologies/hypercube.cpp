// hypercube[:D]: 2^D nodes, each linked to the D nodes whose number differs in one bit; routing
// corrects the bits from the lowest up.
#include <bit>

#include <fmt/format.h>

#include "topology_type.hpp"

namespace mpisim {
namespace {

using namespace topology_helpers;

constexpr int kMaxOrder = 24;

class Hypercube final : public NetworkTopology {
public:
  explicit Hypercube(int order) : order_(order), nodes_(static_cast<int>(power(2, order))) {}

  int nodes() const override { return nodes_; }
  std::string size() const override { return order_ ? fmt::format("{}", order_) : ""; }
  int distance(int a, int b) const override { return std::popcount(static_cast<unsigned>(a ^ b)); }
  void distances_from(const std::vector<int>& sources, std::vector<int>& d) const override {
    breadth_first(sources, d, [this](int node) {
      std::vector<int> result;
      for (int bit = 0; bit < order_; ++bit)
        result.push_back(node ^ (1 << bit));
      return result;
    });
  }
  int diameter() const override { return order_; }
  std::string shape() const override { return fmt::format(" of dimension {}", order_); }
  // The link along a bit leaves its node on port kFirstRoutedPort + bit.
  void add_routed_links(int a, int b, std::vector<Link>& links) const override {
    int node = a;
    for (int bit = 0; bit < order_; ++bit)
      if (((node ^ b) >> bit) & 1) {
        links.push_back(link(node, kFirstRoutedPort + static_cast<Link>(bit)));
        node ^= 1 << bit;
      }
  }

private:
  int order_; ///< the dimension D
  int nodes_;
};

/// The dimension D of a size text, 0 for none.
int read_order(std::optional<std::string_view> size) {
  if (!size) return 0;
  const int order = whole(*size);
  if (order == 0 || order > kMaxOrder) throw BadTopologySize{"the dimension must be 1 to 24"};
  return order;
}

std::string read_size(std::optional<std::string_view> size) {
  const int order = read_order(size);
  return order ? fmt::format("{}", order) : "";
}

std::unique_ptr<const NetworkTopology> make(std::string_view size, int nodes_needed) {
  int order = read_order(size_or_none(size));
  if (!order && nodes_needed > 1) order = levels_for(2, nodes_needed);
  return std::make_unique<Hypercube>(order);
}

} // namespace

extern constinit const TopologyType hypercube_topology{"hypercube", "hypercube[:D]", read_size,
                                                       make};

} // namespace mpisim
