// MPISIM_NETWORK=contention on one host process: messages between nodes are flows that share
// the links of their routes (flow_network.hpp). A flow's arrival is only known once no flow that
// could share its links can still start before it ends, so such messages reach their receiver
// marked pending (envelope visible, arrival not yet decided) and are settled when the ranks of
// the host have all stopped and the earliest time any of them can act again is known.
#pragma once

#include <vector>

#include "flow_network.hpp"
#include "link_costs.hpp"
#include "world.hpp"

namespace mpisim {

class Contention {
public:
  explicit Contention(const LinkCosts& network) : network_(network) {}

  /// Kernel::on_send: a message carrying data to another node becomes a pending flow.
  void on_send(mpilite::Message& m, SimTime injected, std::size_t data_bytes);
  /// Kernel::defer_data: rendezvous data to another node becomes a flow.
  bool defer_data(const mpilite::DataTransfer& d);

  /// With every rank of `world` stopped: settles the flows that are final, or raises the lower
  /// bounds of pending arrivals. Returns true when it settled something (call again later);
  /// otherwise sets `bound` to a lower bound on every arrival still to be settled (kTimeInfinity
  /// when none) for the time bounds of the ranks.
  bool settle(mpilite::World& world, SimTime& bound);

  bool idle() const { return flows_.empty(); }

private:
  struct Payload {
    mpilite::Message* message = nullptr; ///< an eager message, or
    mpilite::DataTransfer data;          ///< rendezvous data
    SimTime tail = 0;                    ///< from the last byte leaving to its arrival
  };

  /// Adds a flow of `bytes` from rank src to rank dst starting at `start`; false when the
  /// message does not cross the network (same node, or infinite bandwidth).
  bool add_flow(const FlowNetwork::Key& key, int src, int dst, std::size_t bytes, SimTime start,
                Payload payload);

  const LinkCosts& network_;
  FlowNetwork flows_;
  std::vector<Payload> payloads_; ///< by FlowNetwork::Flow::payload; entries are reused
  std::vector<std::size_t> free_payloads_;
};

} // namespace mpisim
