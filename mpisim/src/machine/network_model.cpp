#include "network_model.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "contention.hpp"
#include "nic_queues.hpp"
#include "switching.hpp"

namespace mpisim {

using mpilite::Leg;
using mpilite::LegKind;
using mpilite::LegPlan;

LegPlan NetworkModel::alone(const Leg& leg) const {
  // A rank's message to itself is a local copy, as its own part of a collective is
  // (docs/model.md): MPICH copies it in 20 ns to 11 us (0 B to 1 MiB here), where the model of a
  // message between two processes gave 0.12 to 74 us.
  if (leg.from == leg.to) return {leg.start, leg.start, leg.start};
  // The sender's CPU starts a message; the control legs and the data that answer a
  // clear-to-send are the MPI library's progress, not its call.
  const bool first = leg.kind == LegKind::Eager || leg.kind == LegKind::RequestToSend;
  const SimTime leaves = leg.start + (first ? costs_.send_overhead() : 0);
  const int d = costs_.distance(leg.from, leg.to);
  const SimTime whole = costs_.transfer_at_distance(d, leg.bytes);
  // A size segment may have a latency of its own: the latency is never more than the whole.
  const SimTime latency = std::min(whole, costs_.transfer_at_distance(d, 0));
  const SimTime arrives = mpilite::saturating_add(leaves, whole);
  // Data after a clear-to-send is done at the sender when its last byte has left, a header's
  // latency before it arrives; every other leg is done at the sender once it leaves.
  const SimTime sent = leg.kind == LegKind::Data ? arrives - latency : leaves;
  LegPlan p{leaves, sent, arrives};
  p.latency = latency;
  p.transfer = whole - latency;
  return p;
}

SimTime NetworkModel::receive_overhead(int from, int to, std::size_t) const {
  return from == to ? 0 : costs_.recv_overhead();
}

SimTime NetworkModel::exchange_extra(int rank, int dest, std::size_t sent,
                                     std::size_t received) const {
  // The machine's table is by the size of the exchange: the larger of the two messages.
  return rank == dest ? 0 : costs_.sendrecv_extra(std::max(sent, received));
}

SimTime NetworkModel::file_access(int, std::size_t bytes) const {
  const MachineParams& m = costs_.machine();
  return m.io_latency + byte_time(bytes, m.io_bandwidth);
}

SimTime NetworkModel::file_system(std::size_t bytes) const {
  const MachineParams& m = costs_.machine();
  return m.io_latency + byte_time(bytes, m.io_shared_bandwidth);
}

namespace {

/// Every leg as if alone on the network: messages never delay each other.
class LatencyModel final : public NetworkModel {
public:
  using NetworkModel::NetworkModel;
  LegPlan plan(const Leg& leg) override { return alone(leg); }
};

/// A model whose `Queues` (Contention, NicQueues) decide some legs later: they carry those legs,
/// and settle them when the host's ranks have stopped.
template <class Queues> class LaterModel : public NetworkModel {
public:
  LaterModel(const MachineParams& m, int ranks)
      : NetworkModel(m, ranks), queues_(std::make_unique<Queues>(costs_)) {}
  LegPlan plan(const Leg& leg) override {
    LegPlan p = alone(leg);
    p.later = queues_->carry(leg, p);
    return p;
  }
  bool settle(mpilite::Arrivals& arrivals, SimTime remote) override {
    return queues_->settle(arrivals, remote);
  }
  mpilite::HeldBack held(mpilite::Arrivals& arrivals) const override {
    return queues_->held(arrivals);
  }
  void reset() override { queues_ = std::make_unique<Queues>(costs_); }

protected:
  std::unique_ptr<Queues> queues_;
};

/// Messages between nodes are flows that share the links of their routes (contention.hpp).
using ContentionModel = LaterModel<Contention>;

/// Each node's NIC sends, and delivers, one message's bytes after another (nic_queues.hpp); a
/// node's queues are on the host process of its ranks.
class NicModel final : public LaterModel<NicQueues> {
public:
  using LaterModel::LaterModel;
  bool data_at_sender() const override { return true; }
  SimTime received_from_host(const Leg& leg, SimTime at_node) override {
    return queues_->received(leg, at_node);
  }
};

/// No overheads, no transfer time, no exchange cost, and the smallest latency simulated time can
/// tell: a message arrives one picosecond after its sender starts it (a rank's message to itself,
/// at once). What no network can beat, the bound of a what-if study. The picosecond keeps a
/// message after its cause, so that a wildcard receive at time t is decided once every other
/// rank is past t (with none, ranks waiting on each other at one instant would wait forever).
/// A test or probe that finds nothing still costs its poll overhead, the library's CPU time,
/// which keeps polling loops advancing.
class IdealModel final : public NetworkModel {
public:
  using NetworkModel::NetworkModel;
  LegPlan plan(const Leg& leg) override {
    const SimTime latency = leg.from == leg.to ? 0 : kLatency;
    LegPlan p{leg.start, leg.start, leg.start + latency};
    p.latency = latency; // the critical path's part: what else it had would count as contention
    return p;
  }
  SimTime receive_overhead(int, int, std::size_t) const override { return 0; }
  SimTime exchange_extra(int, int, std::size_t, std::size_t) const override { return 0; }
  SimTime lookahead() const override { return kLatency; }

private:
  static constexpr SimTime kLatency = 1;
};

template <class N> std::unique_ptr<NetworkModel> make(const MachineParams& m, int ranks) {
  return std::make_unique<N>(m, ranks);
}

constexpr NetworkModelEntry kModels[] = {
    // A node's legs are decided from its ranks' state, so its ranks share a host process.
    {"nic", "each node's NIC sends and delivers one message after another (the default)",
     make<NicModel>, true, true, 5},
    {"latency", "messages never delay each other (ignores bandwidth sharing)", make<LatencyModel>,
     true, false, 1},
    // Its flows are decided from every sender's state, which only one host process has.
    {"contention", "messages on a link share it", make<ContentionModel>, false, false, 3},
    // With a lookahead of 1 ps, bounds between host processes would advance 1 ps at a time.
    {"ideal", "no overheads or transfer time, 1 ps latency: the bound no network can beat",
     make<IdealModel>, false, false, 1},
};

} // namespace

std::span<const NetworkModelEntry> network_models() {
  return kModels;
}

const NetworkModelEntry* find_network_model(const std::string& name) {
  for (const NetworkModelEntry& e : kModels)
    if (name == e.name) return &e;
  return nullptr;
}

std::string network_model_stamp(const std::string& name) {
  const NetworkModelEntry* e = find_network_model(name);
  return e ? fmt::format("{} v{}", e->name, e->version) : name;
}

std::unique_ptr<NetworkModel> make_network_model(const MachineParams& m, int ranks) {
  if (const NetworkModelEntry* e = find_network_model(m.network)) return e->make(m, ranks);
  throw ConfigError("unknown network model \"" + m.network + "\"");
}

} // namespace mpisim
