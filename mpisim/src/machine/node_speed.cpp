// Per-node core speed (machine key node_speed, MPISIM_NODE_SPEED): how measured host compute
// becomes target compute on each node, and what an OpenMP team's work stands for.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "config_error.hpp"
#include "machine.hpp"

namespace mpisim {
namespace {

constexpr const char* kAllowed =
    "uniform, or a comma-separated list of nodes:speed (nodes a node number or a range "
    "first-last, speed a number > 0), e.g. 0-15:2, 16:0.5";

[[noreturn]] void bad(const std::string& what, const std::string& value, std::string_view reason) {
  throw ConfigError(
      fmt::format("{}={} is not valid: {}; allowed: {}", what, value, reason, kAllowed));
}

template <class T> bool read_number(std::string_view text, T& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc{} && end == text.data() + text.size();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

} // namespace

std::vector<NodeSpeed> parse_node_speeds(const std::string& value, const std::string& what) {
  std::vector<NodeSpeed> speeds;
  if (value == "uniform" || value.empty()) return speeds;
  std::istringstream items(value);
  for (std::string raw; std::getline(items, raw, ',');) {
    const std::string_view item = trim(raw);
    const auto colon = item.find(':');
    if (colon == std::string_view::npos)
      bad(what, value, fmt::format("'{}' is not nodes:speed", item));
    const std::string_view nodes = trim(item.substr(0, colon));
    const auto dash = nodes.find('-');
    NodeSpeed s;
    const bool nodes_ok = dash == std::string_view::npos
                              ? read_number(nodes, s.first) && (s.last = s.first, true)
                              : read_number(nodes.substr(0, dash), s.first) &&
                                    read_number(nodes.substr(dash + 1), s.last);
    if (!nodes_ok || s.first < 0 || s.last < s.first)
      bad(what, value, fmt::format("'{}' is not a node or a range first-last", nodes));
    if (!read_number(trim(item.substr(colon + 1)), s.speed) || !std::isfinite(s.speed) ||
        s.speed <= 0)
      bad(what, value, fmt::format("the speed of '{}' is not a number > 0", item));
    for (const NodeSpeed& o : speeds)
      if (s.first <= o.last && o.first <= s.last)
        bad(what, value, fmt::format("node {} is given twice", std::max(s.first, o.first)));
    speeds.push_back(s);
  }
  std::sort(speeds.begin(), speeds.end(),
            [](const NodeSpeed& a, const NodeSpeed& b) { return a.first < b.first; });
  return speeds;
}

std::string format_node_speeds(const std::vector<NodeSpeed>& speeds) {
  if (speeds.empty()) return "uniform";
  std::vector<std::string> items;
  for (const NodeSpeed& s : speeds)
    items.push_back(s.first == s.last ? fmt::format("{}:{}", s.first, s.speed)
                                      : fmt::format("{}-{}:{}", s.first, s.last, s.speed));
  return fmt::format("{}", fmt::join(items, ", "));
}

double MachineParams::compute_ps(double host_ns, int rank) const {
  const double ps = host_ns * 1000.0 * cpu_scale;
  if (node_speeds.empty()) return ps;
  const int node = rank / ranks_per_node;
  for (const NodeSpeed& s : node_speeds)
    if (node >= s.first && node <= s.last) return ps / s.speed;
  return ps;
}

} // namespace mpisim
