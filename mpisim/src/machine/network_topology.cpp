#include "network_topology.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "config_error.hpp"
#include "topologies/topology_type.hpp"

namespace mpisim {
namespace {

[[noreturn]] void bad_topology(const std::string& what, const std::string& text,
                               std::string_view reason) {
  throw ConfigError(fmt::format("{}={} is not a valid topology: {}; allowed: {}", what, text,
                                reason, topology_syntax()));
}

} // namespace

const char* topology_syntax() {
  static const std::string syntax = [] {
    std::string s;
    for (const TopologyType* type : topology_types())
      s += fmt::format("{}{}", s.empty() ? "" : ", ", type->syntax);
    return s + "; a missing size is as large as the ranks need";
  }();
  return syntax.c_str();
}

TopologySpec parse_topology(const std::string& text, const std::string& what) {
  const auto colon = text.find(':');
  const std::string_view name = std::string_view(text).substr(0, colon);
  const TopologyType* type = find_topology_type(name);
  if (!type) bad_topology(what, text, "unknown kind");
  std::optional<std::string_view> size;
  if (colon != std::string::npos) size = std::string_view(text).substr(colon + 1);
  try {
    return {std::string(name), type->read_size(size)};
  } catch (const BadTopologySize& bad) {
    bad_topology(what, text, bad.reason);
  }
}

std::string format_topology(const TopologySpec& spec) {
  return spec.size.empty() ? spec.kind : fmt::format("{}:{}", spec.kind, spec.size);
}

Topology::Topology(const TopologySpec& spec, int nodes_needed, const std::string& what)
    : kind_(spec.kind) {
  const TopologyType* type = find_topology_type(spec.kind);
  if (!type)
    throw ConfigError(
        fmt::format("{}: unknown topology {}; allowed: {}", what, spec.kind, topology_syntax()));
  nodes_needed = std::max(nodes_needed, 1);
  try {
    network_ = type->make(spec.size, nodes_needed);
  } catch (const BadTopologySize& bad) {
    throw ConfigError(fmt::format("{}: topology {} is not valid: {}; allowed: {}", what,
                                  format_topology(spec), bad.reason, topology_syntax()));
  }
  nodes_ = network_->nodes();
  if (nodes_ < nodes_needed)
    throw ConfigError(fmt::format(
        "{}: topology {} has {} nodes, but the ranks need {}; give a larger size or leave the "
        "size out ({}) so that it follows the ranks",
        what, format_topology(spec), nodes_, nodes_needed, spec.kind));
}

std::vector<int> Topology::distances_from(const std::vector<int>& sources) const {
  std::vector<int> d(static_cast<std::size_t>(nodes_), NetworkTopology::kUnreached);
  for (int s : sources)
    d[static_cast<std::size_t>(s)] = 0;
  if (!sources.empty()) network_->distances_from(sources, d);
  return d;
}

std::string Topology::describe() const {
  return fmt::format("{}{} ({} nodes, diameter {} links)", kind_, network_->shape(), nodes_,
                     diameter());
}

std::vector<Topology::Link> Topology::route(int a, int b) const {
  if (a == b) return {};
  std::vector<Link> links{topology_helpers::link(a, topology_helpers::kInjection)};
  network_->add_routed_links(a, b, links);
  links.push_back(topology_helpers::link(b, topology_helpers::kEjection));
  return links;
}

} // namespace mpisim
