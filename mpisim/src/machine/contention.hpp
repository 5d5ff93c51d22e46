// MPISIM_NETWORK=contention on one host process: messages are flows that share the links of
// their routes (flow_network.hpp), between nodes the topology's, inside a node the memory of the
// two ranks. A flow's arrival is only known once no flow that
// could share its links can still start before it ends, so such legs are planned `later`
// (envelope visible, arrival not yet decided) and decided when the ranks of the host have all
// stopped and the earliest time any of them can act again is known.
#pragma once

#include <vector>

#include "flow_network.hpp"
#include "link_costs.hpp"
#include "message_timing.hpp"
#include "slot_pool.hpp"

namespace mpisim {

class Contention {
public:
  explicit Contention(const LinkCosts& costs) : costs_(costs) {}

  /// A leg planned `alone` as if alone on the network: an Eager or Data leg that carries data to
  /// another rank becomes a flow, and true says its arrival is decided later.
  bool carry(const mpilite::Leg& leg, const mpilite::LegPlan& alone);

  /// With every rank of the host stopped: decides the flows that are final, or raises the lower
  /// bounds of undecided arrivals. Returns true when it decided something (call again later).
  /// One host process only: `remote` is kTimeInfinity.
  bool settle(mpilite::Arrivals& arrivals, SimTime remote);
  /// What it still holds: a lower bound on every arrival still undecided, for the time bounds of
  /// the ranks, when its flows may next wake a rank, and whether settle() can decide some now.
  mpilite::HeldBack held(mpilite::Arrivals& arrivals) const;

private:
  struct Payload {
    mpilite::Message* message = nullptr; ///< an eager message, or
    mpilite::DataTransfer data;          ///< rendezvous data
    SimTime tail = 0;                    ///< from the last byte leaving to its arrival
  };

  /// Adds a flow of `bytes` from rank src to rank dst starting at `start`; false when the
  /// message takes no transmission time (a rank's copy to itself, or infinite bandwidth).
  bool add_flow(const FlowNetwork::Key& key, int src, int dst, std::size_t bytes, SimTime start,
                Payload payload);

  /// The flows whose end nothing can change any more when no stopped rank acts before `act`.
  std::vector<FlowNetwork::Finished> final_flows(SimTime act) const;

  const LinkCosts& costs_;
  FlowNetwork flows_;
  SlotPool<Payload> payloads_; ///< by FlowNetwork::Flow::payload
};

} // namespace mpisim
