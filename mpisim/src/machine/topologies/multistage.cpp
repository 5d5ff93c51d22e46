// multistage:K[,S]: a multistage switch of S stages of radix-K switching elements between K^S
// nodes. Every message crosses every stage; the switch is taken as non-blocking, so a route holds
// only the injection and ejection links.
#include <fmt/format.h>

#include "topology_type.hpp"

namespace mpisim {
namespace {

using namespace topology_helpers;

class Multistage final : public NetworkTopology {
public:
  explicit Multistage(const ArityLevels& size)
      : size_(size), nodes_(static_cast<int>(power(size.arity, size.levels))) {}

  int nodes() const override { return nodes_; }
  std::string size() const override { return format_arity_levels(size_); }
  int distance(int, int) const override { return size_.levels + 1; }
  void distances_from(const std::vector<int>&, std::vector<int>& d) const override {
    set_unreached(d, size_.levels + 1);
  }
  int diameter() const override { return size_.levels + 1; }
  std::string shape() const override {
    return fmt::format(" ({} stages of radix-{} switches)", size_.levels, size_.arity);
  }

private:
  ArityLevels size_; ///< radix and stages
  int nodes_;
};

std::unique_ptr<const NetworkTopology> make(std::string_view size, int nodes_needed) {
  return std::make_unique<Multistage>(sized_arity_levels(size, nodes_needed));
}

} // namespace

extern constinit const TopologyType multistage_topology{
    "multistage", "multistage:K[,S] (radix K, S stages)", topology_helpers::read_arity_levels_size,
    make};

} // namespace mpisim
