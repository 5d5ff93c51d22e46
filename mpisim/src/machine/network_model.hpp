// The target network as the simulation sees it: its costs (LinkCosts: overheads, latency,
// topology, switching) and what it does with messages in flight. An interface with one
// implementation per MPISIM_NETWORK value, made by name: "latency" (every message's arrival
// follows from its size and route alone) and "contention" (messages share links as flows, so an
// arrival is decided only when no flow that could share its links can still start).
#pragma once

#include <memory>

#include "machine.hpp"
#include "message.hpp"
#include "link_costs.hpp"

namespace mpilite {
class World;
}

namespace mpisim {

class NetworkModel {
public:
  virtual ~NetworkModel() = default;

  /// The costs of the target machine.
  virtual const LinkCosts& costs() const = 0;

  /// A message leaves its sender at `injected` carrying `data_bytes` of data (0 for a
  /// request-to-send). A network that decides arrivals later marks it pending.
  virtual void on_send(mpilite::Message&, SimTime /*injected*/, std::size_t /*data_bytes*/) {}
  /// The data of a matched rendezvous leaves its sender: true when the network decides its
  /// arrival later (and calls finish_data then).
  virtual bool defer_data(const mpilite::DataTransfer&) { return false; }
  /// With every rank of `world` stopped: settles what has become final and returns true, or sets
  /// `held` to a lower bound on every arrival the network still holds back.
  virtual bool settle(mpilite::World&, SimTime& held) {
    held = mpilite::kTimeInfinity;
    return false;
  }
  /// A new run: nothing in flight.
  virtual void reset() {}
};

/// The network of `m.network` for `ranks` ranks. Throws ConfigError as LinkCosts does.
std::unique_ptr<NetworkModel> make_network(const MachineParams& m, int ranks);

} // namespace mpisim
