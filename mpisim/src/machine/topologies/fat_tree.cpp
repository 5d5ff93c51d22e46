// fat-tree:K[,N]: a K-ary N-tree, K^N nodes under N levels of switches. A message goes up to the
// nearest switch above both nodes and down again; the tree is taken as non-blocking, so a route
// holds only the injection and ejection links.
#include <fmt/format.h>

#include "topology_type.hpp"

namespace mpisim {
namespace {

using namespace topology_helpers;

class FatTree final : public NetworkTopology {
public:
  explicit FatTree(const ArityLevels& size)
      : size_(size), nodes_(static_cast<int>(power(size.arity, size.levels))) {}

  int nodes() const override { return nodes_; }
  std::string size() const override { return format_arity_levels(size_); }
  int distance(int a, int b) const override {
    int level = 0; // of the nearest common ancestor switch
    for (; a != b; ++level) {
      a /= size_.arity;
      b /= size_.arity;
    }
    return 2 * level;
  }
  void distances_from(const std::vector<int>& sources, std::vector<int>& d) const override {
    // A node reaches a source through the lowest subtree they share.
    long long span = 1;
    for (int level = 1; level <= size_.levels; ++level) {
      span *= size_.arity;
      std::vector<char> has_source(static_cast<std::size_t>((nodes_ + span - 1) / span), 0);
      for (int s : sources)
        has_source[static_cast<std::size_t>(s / span)] = 1;
      for (int b = 0; b < nodes_; ++b)
        if (d[static_cast<std::size_t>(b)] == kUnreached &&
            has_source[static_cast<std::size_t>(b / span)])
          d[static_cast<std::size_t>(b)] = 2 * level;
    }
  }
  int diameter() const override { return 2 * size_.levels; }
  std::string shape() const override {
    return fmt::format(" ({}-ary {}-tree)", size_.arity, size_.levels);
  }

private:
  ArityLevels size_;
  int nodes_;
};

std::unique_ptr<const NetworkTopology> make(std::string_view size, int nodes_needed) {
  return std::make_unique<FatTree>(sized_arity_levels(size, nodes_needed));
}

} // namespace

extern constinit const TopologyType fat_tree_topology{
    "fat-tree", "fat-tree:K[,N] (K-ary N-tree)", topology_helpers::read_arity_levels_size, make};

} // namespace mpisim
