#include "link_costs.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include <fmt/format.h>

#include "machine_file.hpp"
#include "switching.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

int nodes_needed(const MachineParams& m, int ranks) {
  if (m.ranks_per_node < 1)
    throw ConfigError(fmt::format("machine {}: ranks_per_node must be at least 1", m.name));
  return (std::max(ranks, 1) + m.ranks_per_node - 1) / m.ranks_per_node;
}

void check(const MachineParams& m) {
  if (m.latency <= 0)
    throw ConfigError(fmt::format("machine {}: the latency must be greater than zero (it is the "
                                  "lookahead of the simulation); the ideal preset uses 1ps",
                                  m.name));
  if (m.intra_latency && *m.intra_latency <= 0)
    throw ConfigError(fmt::format("machine {}: intra_latency must be greater than zero", m.name));
  for (std::size_t i = 0; i < m.segments.size(); ++i)
    if (m.segments[i].from == 0 || (i > 0 && m.segments[i].from <= m.segments[i - 1].from))
      throw ConfigError(
          fmt::format("machine {}: segments need sizes above 0 in increasing order", m.name));
  if (m.switching == Switching::Wormhole && m.flit_size == 0)
    throw ConfigError(fmt::format("machine {}: wormhole switching needs a flit size; set "
                                  "flit_size (MPISIM_FLIT_SIZE), e.g. 8",
                                  m.name));
}

std::vector<int> nodes_of(const LinkCosts& net, const std::vector<int>& ranks) {
  std::vector<int> nodes;
  for (int r : ranks)
    nodes.push_back(net.node_of(r));
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

} // namespace

LinkCosts::LinkCosts(const MachineParams& m, int ranks)
    : m_(m), ranks_(ranks),
      topology_(m.topology, nodes_needed(m, ranks), fmt::format("machine {}", m.name)) {
  check(m_);
  for (const LinkSegment& s : m_.segments) {
    segment_links_.push_back(m_);
    segment_links_.back().latency = s.latency;
    segment_links_.back().bandwidth = s.bandwidth;
  }
  for (int d = 0; d <= topology_.diameter(); ++d)
    latency_at_.push_back(work_out_transfer(d, 0));
  for (const LinkSegment& s : m_.segments)
    if (transfer_at_distance(1, s.from) <= 0)
      throw ConfigError(fmt::format("machine {}: a message of {} bytes, where a segment starts, "
                                    "would take no time; raise that segment's latency",
                                    m_.name, s.from));
  const int used_nodes = nodes_needed(m_, ranks_);
  SimTime best = std::numeric_limits<SimTime>::max();
  // Ranks 0 and 1 share node 0 when nodes hold several ranks; nodes 0 and 1 are at the
  // smallest distance of every topology here.
  if (ranks_ > 1 && m_.ranks_per_node > 1) best = floor_at_distance(0);
  if (used_nodes > 1 || best == std::numeric_limits<SimTime>::max())
    best = std::min(best, floor_at_distance(std::max(topology_.distance(0, 1), 1)));
  min_latency_ = best;
}

const MachineParams& LinkCosts::link_for(std::size_t bytes) const {
  for (std::size_t i = m_.segments.size(); i-- > 0;)
    if (bytes >= m_.segments[i].from) return segment_links_[i];
  return m_;
}

SimTime LinkCosts::work_out_transfer(int d, std::size_t bytes) const {
  if (d == 0) {
    if (!m_.intra_latency && !m_.intra_bandwidth) return work_out_transfer(1, bytes);
    return mpilite::saturating_add(m_.intra_latency.value_or(m_.latency),
                                   byte_time(bytes, m_.intra_bandwidth.value_or(m_.bandwidth)));
  }
  const MachineParams& link = link_for(bytes);
  return mpilite::saturating_add(link.latency, switching_time(link, d, bytes));
}

SimTime LinkCosts::transmission(int src, int dst, std::size_t bytes) const {
  const int d = distance(src, dst);
  if (d == 0) return 0;
  const MachineParams& link = link_for(bytes);
  return switching_time(link, d, bytes) - switching_time(link, d, 0);
}

SimTime LinkCosts::injection(int src, int dst, std::size_t bytes) const {
  if (src == dst) return 0;
  return sized(distance(src, dst), bytes).injection;
}

SimTime LinkCosts::work_out_injection(int d, std::size_t bytes) const {
  // Inside a node a rank copies the bytes through memory at the intra-node bandwidth: the part
  // of the transfer beyond its latency. Where the node's ranks talk through the network, its
  // NIC is busy as for a message to another node (the part beyond the latency would miss a
  // packet's overhead, and all of a wormhole message of one flit).
  if (d == 0) {
    if (!m_.intra_latency && !m_.intra_bandwidth) return work_out_injection(1, bytes);
    return work_out_transfer(0, bytes) - work_out_transfer(0, 0);
  }
  const MachineParams& link = link_for(bytes);
  if (&link == &m_) return link_busy(link, bytes);
  const SimTime bytes_time = byte_time(bytes, link.bandwidth);
  // A segment's line may start below the latency (a fitted intercept, even a negative one): the
  // NIC is then busy only as long as the line takes beyond a header's latency, so that a message
  // alone still arrives, and is sent, when the line says.
  const SimTime line = work_out_transfer(d, bytes) - transfer_at_distance(d, 0);
  return std::clamp<SimTime>(line, 0, bytes_time);
}

SimTime LinkCosts::floor_at_distance(int d) const {
  if (d == 0 && (m_.intra_latency || m_.intra_bandwidth)) return transfer_at_distance(0, 0);
  // The time grows with the size inside a segment, so each segment is cheapest at its start.
  SimTime best = transfer_at_distance(std::max(d, 1), 0);
  for (const LinkSegment& s : m_.segments)
    best = std::min(best, transfer_at_distance(std::max(d, 1), s.from));
  return best;
}

SimTime LinkCosts::sendrecv_extra(std::size_t bytes) const {
  const std::vector<SizedTime>& p = m_.sendrecv_extra;
  if (p.empty()) return 0;
  if (p.size() == 1 || bytes <= p.front().bytes) return p.front().time;
  // The segment that holds `bytes`, or the last one, extended.
  std::size_t i = 1;
  while (i + 1 < p.size() && bytes > p[i].bytes)
    ++i;
  const SizedTime& a = p[i - 1];
  const SizedTime& b = p[i];
  const long double slope =
      static_cast<long double>(b.time - a.time) / static_cast<long double>(b.bytes - a.bytes);
  const long double t =
      static_cast<long double>(a.time) + slope * static_cast<long double>(bytes - a.bytes);
  return t <= 0 ? 0 : static_cast<SimTime>(std::llround(t));
}

SimTime LinkCosts::transfer(int src, int dst, std::size_t bytes) const {
  return transfer_at_distance(distance(src, dst), bytes);
}

SimTime LinkCosts::min_latency_between(const std::vector<int>& ranks_a,
                                       const std::vector<int>& ranks_b) const {
  const std::vector<int> a = nodes_of(*this, ranks_a);
  const std::vector<int> b = nodes_of(*this, ranks_b);
  std::vector<int> shared;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(shared));
  constexpr int kNone = std::numeric_limits<int>::max();
  int d = kNone; // smallest distance between a node of a and a different node of b
  const std::vector<int> from_a = topology_.distances_from(a);
  for (int y : b)
    if (from_a[static_cast<std::size_t>(y)] > 0)
      d = std::min(d, from_a[static_cast<std::size_t>(y)]);
  const std::vector<int> from_b = topology_.distances_from(b);
  for (int x : a)
    if (from_b[static_cast<std::size_t>(x)] > 0)
      d = std::min(d, from_b[static_cast<std::size_t>(x)]);
  // Two different nodes that both sets use: few in practice (a node split between hosts).
  constexpr std::size_t kPairLimit = 256;
  if (shared.size() > kPairLimit) {
    d = std::min(d, topology_.distance(0, 1)); // a lower bound, so still a safe lookahead
  } else {
    for (std::size_t i = 0; i < shared.size(); ++i)
      for (std::size_t j = i + 1; j < shared.size(); ++j)
        d = std::min(d, topology_.distance(shared[i], shared[j]));
  }
  SimTime best = std::numeric_limits<SimTime>::max();
  if (!shared.empty()) best = floor_at_distance(0);
  if (d != kNone) best = std::min(best, floor_at_distance(d));
  return best == std::numeric_limits<SimTime>::max() ? mpilite::kTimeInfinity : best;
}

std::string LinkCosts::describe() const {
  const int used = nodes_needed(m_, ranks_);
  std::string comment =
      fmt::format("machine {} for {} rank(s): {}\n", m_.name, ranks_, m_.description);
  comment += fmt::format("topology: {}; {} node(s) used, {} rank(s) per node\n",
                         topology_.describe(), used, m_.ranks_per_node);
  comment += "one-way time of a message, without overheads (latency + switching time):\n";
  const int diameter = topology_.diameter();
  std::vector<int> distances{0};
  if (diameter >= 1) distances.push_back(std::max(1, topology_.distance(0, 1)));
  if (diameter > distances.back()) distances.push_back(diameter);
  for (int d : distances)
    comment += fmt::format("  {:<22} 0 B: {:<12} 1 KiB: {:<12} 1 MiB: {}\n",
                           d == 0 ? "inside a node" : fmt::format("across {} link(s)", d),
                           format_time(transfer_at_distance(d, 0)),
                           format_time(transfer_at_distance(d, 1024)),
                           format_time(transfer_at_distance(d, 1 << 20)));
  comment +=
      fmt::format("smallest latency between two ranks (lookahead): {}", format_time(min_latency_));
  return format_machine_file(m_, comment);
}

} // namespace mpisim
