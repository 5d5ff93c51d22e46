#include "topology_type.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace mpisim {

// Every topology, in the order help texts list them: X(name) stands for the TopologyType
// `name_topology` that the topology's file in this folder defines. Adding a topology is its file
// (found by the CMake glob) plus its line here.
//
// Why a list and not self-registering files: the topologies end up in the static archive
// libmpisim.a, and the linker takes an object out of an archive only when something refers to
// one of its symbols. A file whose sole job is a static initializer that registers it is referred
// to by nothing, so programs linking libmpisim.a normally would silently lose that topology (the
// unit tests, linking the archive whole, would not notice). This table refers to every
// TopologyType, which pulls each topology's object into every link that parses a topology. The
// TopologyTypes are constant-initialized (constinit), so no static initialization order matters.
#define MPISIM_TOPOLOGIES(X)                                                                       \
  X(fully_connected)                                                                               \
  X(ring)                                                                                          \
  X(mesh)                                                                                          \
  X(torus)                                                                                         \
  X(hypercube)                                                                                     \
  X(fat_tree)                                                                                      \
  X(multistage)

#define MPISIM_DECLARE_TOPOLOGY(name) extern const TopologyType name##_topology;
MPISIM_TOPOLOGIES(MPISIM_DECLARE_TOPOLOGY)
#undef MPISIM_DECLARE_TOPOLOGY

namespace {

#define MPISIM_TOPOLOGY_ADDRESS(name) &name##_topology,
constexpr const TopologyType* kTopologyTypes[] = {MPISIM_TOPOLOGIES(MPISIM_TOPOLOGY_ADDRESS)};
#undef MPISIM_TOPOLOGY_ADDRESS

} // namespace

std::span<const TopologyType* const> topology_types() {
  return kTopologyTypes;
}

const TopologyType* find_topology_type(std::string_view name) {
  for (const TopologyType* type : kTopologyTypes)
    if (type->name == name) return type;
  return nullptr;
}

namespace topology_helpers {

int whole(std::string_view s) {
  int n = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  return error == std::errc{} && end == s.data() + s.size() && n > 0 && n <= kMaxNodes ? n : 0;
}

std::vector<int> numbers(std::string_view s, char separator) {
  std::vector<int> result;
  while (true) {
    const auto cut = s.find(separator);
    const int n = whole(s.substr(0, cut));
    if (n == 0) return {};
    result.push_back(n);
    if (cut == std::string_view::npos) return result;
    s.remove_prefix(cut + 1);
  }
}

int levels_for(int base, int n) {
  int levels = 1;
  for (long long size = base; size < n; size *= base)
    ++levels;
  return levels;
}

long long power(int base, int exponent) {
  long long p = 1;
  for (int i = 0; i < exponent && p <= kMaxNodes; ++i)
    p *= base;
  return p;
}

std::string read_node_count(std::optional<std::string_view> size) {
  if (!size) return {};
  const int nodes = whole(*size);
  if (!nodes) throw BadTopologySize{"bad node count"};
  return fmt::format("{}", nodes);
}

int node_count(std::string_view size, int nodes_needed) {
  if (size.empty()) return nodes_needed;
  const int nodes = whole(size);
  if (!nodes) throw BadTopologySize{"bad node count"};
  return nodes;
}

void set_unreached(std::vector<int>& d, int distance) {
  for (int& x : d)
    if (x == NetworkTopology::kUnreached) x = distance;
}

ArityLevels read_arity_levels(std::optional<std::string_view> size) {
  const std::vector<int> parts = size ? numbers(*size, ',') : std::vector<int>{};
  if (parts.empty() || parts.size() > 2 || parts[0] < 2)
    throw BadTopologySize{"give the switch arity K >= 2, and optionally the levels"};
  const ArityLevels result{parts[0], parts.size() == 2 ? parts[1] : 0};
  if (power(result.arity, result.levels) > kMaxNodes) throw BadTopologySize{"too many nodes"};
  return result;
}

std::string format_arity_levels(const ArityLevels& size) {
  return size.levels ? fmt::format("{},{}", size.arity, size.levels)
                     : fmt::format("{}", size.arity);
}

std::string read_arity_levels_size(std::optional<std::string_view> size) {
  return format_arity_levels(read_arity_levels(size));
}

ArityLevels sized_arity_levels(std::string_view size, int nodes_needed) {
  ArityLevels sized = read_arity_levels(size_or_none(size));
  if (!sized.levels) sized.levels = levels_for(sized.arity, nodes_needed);
  return sized;
}

} // namespace topology_helpers
} // namespace mpisim
