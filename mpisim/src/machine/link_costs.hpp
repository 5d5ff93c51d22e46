// The target network of docs/machines.md: per-message overheads, a latency paid once, the
// switching time over the links of the topology's route, and a separate link between the ranks
// of one node. Exact integer picoseconds that depend only on (source, destination, bytes).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "config_error.hpp"
#include "machine.hpp"
#include "network_topology.hpp"

namespace mpisim {

class LinkCosts {
public:
  /// The machine `m` sized for `ranks` ranks. Throws ConfigError when the machine cannot hold
  /// them (a topology of fixed size that is too small) or is inconsistent (wormhole switching
  /// without a flit size, a latency that is not positive).
  LinkCosts(const MachineParams& m, int ranks);

  const MachineParams& machine() const { return m_; }
  const Topology& topology() const { return topology_; }
  int ranks() const { return ranks_; }

  SimTime send_overhead() const { return m_.send_overhead; }
  SimTime recv_overhead() const { return m_.recv_overhead; }
  /// The machine's sendrecv_extra at `bytes`: linear between its sizes, the first point's below
  /// them, the last segment's line beyond them (never below 0).
  SimTime sendrecv_extra(std::size_t bytes) const;
  std::size_t eager_limit() const { return static_cast<std::size_t>(m_.eager_limit); }
  SimTime poll_overhead() const { return m_.poll_overhead; }

  /// The node that holds `rank` (block mapping, ranks_per_node ranks per node).
  int node_of(int rank) const { return rank / m_.ranks_per_node; }
  /// Links between the nodes of two ranks (0 on one node).
  int distance(int src, int dst) const { return topology_.distance(node_of(src), node_of(dst)); }

  /// Time from injection to arrival of `bytes` bytes from rank src to rank dst:
  /// on one node intra_latency + bytes / intra_bandwidth, otherwise
  /// latency + switching_time(distance, bytes).
  SimTime transfer(int src, int dst, std::size_t bytes) const;
  /// transfer() for a message that crosses `d` links (0: inside a node).
  SimTime transfer_at_distance(int d, std::size_t bytes) const {
    // A latency is wanted with every leg: it is worked out once per distance.
    if (bytes == 0 && static_cast<std::size_t>(d) < latency_at_.size())
      return latency_at_[static_cast<std::size_t>(d)];
    return sized(d, bytes).transfer;
  }
  /// The part of transfer(src, dst, bytes) that grows with the bytes: how long the message
  /// occupies the links of its route (bytes / bandwidth for cut-through, d times that for
  /// store-and-forward, ...). 0 inside a node.
  SimTime transmission(int src, int dst, std::size_t bytes) const;
  /// How long the `bytes` of a message from rank src to rank dst occupy the NIC of each end: the
  /// bytes at the link's bandwidth and each packet's overhead (link_busy); with a line per size
  /// segment, no longer than transfer() beyond its latency. Inside a node, how long each rank's
  /// memory copy takes (transfer() beyond its latency); 0 for a rank's message to itself.
  SimTime injection(int src, int dst, std::size_t bytes) const;
  /// The smallest transfer_at_distance(d, n) over all sizes n.
  SimTime floor_at_distance(int d) const;

  /// Smallest transfer(src, dst, 0) over two distinct ranks: the static lookahead (> 0).
  SimTime min_latency() const { return min_latency_; }
  /// Smallest transfer(a, b, 0) for a rank a of `ranks_a` and a different rank b of `ranks_b`:
  /// the lookahead between two host processes that own these ranks.
  SimTime min_latency_between(const std::vector<int>& ranks_a,
                              const std::vector<int>& ranks_b) const;

  /// The resolved machine, as a machine file with comments on its size and latencies.
  std::string describe() const;

private:
  /// The link for messages of `bytes`: the machine, or a copy with a segment's latency and
  /// bandwidth.
  const MachineParams& link_for(std::size_t bytes) const;
  /// transfer_at_distance() from the machine's parameters.
  SimTime work_out_transfer(int d, std::size_t bytes) const;
  /// injection() between nodes `d` links apart, from the machine's parameters.
  SimTime work_out_injection(int d, std::size_t bytes) const;

  /// The costs of `bytes` at distance `d`, worked out once for the sizes a program sends most.
  struct Sized {
    std::size_t bytes = 0;
    int d = -1; ///< -1: an empty slot
    SimTime transfer = 0;
    SimTime injection = 0;
  };
  const Sized& sized(int d, std::size_t bytes) const {
    // Programs send few sizes many times; each leg asks for its transfer and its NIC time, whose
    // formulas (the size's segment, the switching, 64-bit divisions) cost more than the rest of
    // its plan. The simulation thread alone plans legs.
    Sized& s = sized_[(bytes * 0x9E3779B97F4A7C15ull + static_cast<std::size_t>(d)) >> 58];
    if (s.bytes != bytes || s.d != d)
      s = {bytes, d, work_out_transfer(d, bytes), work_out_injection(d, bytes)};
    return s;
  }

  MachineParams m_;
  std::vector<MachineParams> segment_links_; ///< one per m_.segments
  int ranks_;
  Topology topology_;
  std::vector<SimTime> latency_at_; ///< transfer_at_distance(d, 0) for d = 0..diameter
  mutable std::array<Sized, 64> sized_{};
  SimTime min_latency_ = 0;
};

} // namespace mpisim
