// A network model: how the target network carries messages. It plans every leg of every message
// (mpilite::MessageTiming::plan, the one place a message's times are decided) from the machine's
// costs (LinkCosts: overheads, latency, topology, switching) and what else is in flight. Models
// are registered by name (MPISIM_NETWORK): "latency" (every leg as if alone on the network), "nic"
// (each node's NIC sends and delivers one message after another), "contention" (messages
// between nodes share the links of their routes, so an arrival is decided only when no message
// that could share its links can still start) and "ideal" (no network time at all: the bound no
// network can beat).
#pragma once

#include <memory>
#include <span>

#include "link_costs.hpp"
#include "machine.hpp"
#include "message_timing.hpp"

namespace mpisim {

class NetworkModel : public mpilite::MessageTiming {
public:
  NetworkModel(const MachineParams& m, int ranks) : costs_(m, ranks) {}

  /// The costs of the target machine.
  const LinkCosts& costs() const { return costs_; }

  // mpilite::MessageTiming: plan() is the model's; the rest is the machine's.
  SimTime receive_overhead(int from, int to, std::size_t bytes) const override;
  SimTime exchange_extra(int rank, int dest, std::size_t sent, std::size_t received) const override;
  std::size_t eager_limit() const override { return costs_.eager_limit(); }
  SimTime poll_overhead() const override { return costs_.poll_overhead(); }
  SimTime file_access(int rank, std::size_t bytes) const override;
  SimTime file_system(std::size_t bytes) const override;

  /// With every rank of this host stopped, and no leg from another host process reaching this
  /// one before `remote`: decides the arrivals planned `later` that have become final (and
  /// returns true: call again once the ranks stop).
  virtual bool settle(mpilite::Arrivals&, SimTime /*remote*/) { return false; }
  /// What it still holds back once settle() decides nothing more.
  virtual mpilite::HeldBack held(mpilite::Arrivals&) const { return {}; }
  /// A new run: nothing in flight.
  virtual void reset() {}
  /// The smallest time from a rank's action to its message's arrival at another rank: the
  /// lookahead every bound on what may still arrive is built on.
  virtual SimTime lookahead() const { return costs_.min_latency(); }

protected:
  /// The times of `leg` alone on the network: the sender's overhead before the first leg of a
  /// message, then latency and transfer over the route; a rank's message to itself is a local
  /// copy that costs nothing.
  mpilite::LegPlan alone(const mpilite::Leg& leg) const;

  LinkCosts costs_;
};

/// A network model by name, for MPISIM_NETWORK and the help texts.
struct NetworkModelEntry {
  const char* name;
  const char* description;
  std::unique_ptr<NetworkModel> (*make)(const MachineParams&, int ranks);
  bool several_hosts; ///< exact when the ranks are spread over several host processes
  bool whole_nodes;   ///< then only when each node's ranks are on one host process
  /// Raised whenever the model's predictions change on purpose, so that a report, a recording or
  /// a study says which rules made its times.
  int version;
};

/// Every registered model, the default first.
std::span<const NetworkModelEntry> network_models();

/// The entry named `name`, or nullptr.
const NetworkModelEntry* find_network_model(const std::string& name);

/// "name vN", the model and the version of its rules, for reports and recordings; `name` alone
/// when no model has that name.
std::string network_model_stamp(const std::string& name);

/// The model `m.network` names, for `ranks` ranks. Throws ConfigError as LinkCosts does.
std::unique_ptr<NetworkModel> make_network_model(const MachineParams& m, int ranks);

} // namespace mpisim
