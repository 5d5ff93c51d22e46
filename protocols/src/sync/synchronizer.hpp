// The synchronization core of one host: when none of its LPs can run, it takes in frames, raises
// the LPs' input bounds as far as the chosen protocol proves safe, and runs the protocol until an
// LP may proceed, the run ends or the target program is found deadlocked. One host alone is the
// case H = 1 of the same code (a SingleHost transport: no peers, so the exact local bound).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "global_rounds.hpp"
#include "held_back.hpp"
#include "local_bound.hpp"
#include "local_lps.hpp"
#include "run_end.hpp"
#include "sync_protocol.hpp"

namespace mpisim::protocols {

/// Receives the frames that carry the simulation's own traffic (messages and replies).
class FrameSink {
public:
  virtual ~FrameSink() = default;
  virtual void on_data(int from, std::span<const std::byte> body) = 0;
  virtual void on_reply(int from, std::span<const std::byte> body) = 0;
  virtual void on_transfer(int from, std::span<const std::byte> body) = 0;
};

struct SyncOptions {
  std::string protocol{kDefaultProtocol}; ///< a name of the ProtocolRegistry
  SimTime lookahead = 1;                  ///< smallest latency between two LPs (> 0)
  /// [a][b]: the smallest latency from an LP of host a to an LP of host b (>= lookahead; empty:
  /// `lookahead` between every two hosts). Null messages to a peer, and the bounds of a global
  /// round, add the lookahead from the host a message would come from, so nodes that never span
  /// two hosts give a longer lookahead across hosts than the network's smallest latency (often
  /// that of two ranks of one node).
  std::vector<std::vector<SimTime>> lookahead_between;
  SimTime quantum = 0; ///< the quantum protocol's window (0: the lookahead)
  bool static_lookahead = false;
};

using mpilite::HeldBack;
using mpilite::RunEnd;

class Synchronizer {
public:
  Synchronizer(Transport& transport, const SyncOptions& options);

  int host() const { return t_.host(); }
  int hosts() const { return t_.hosts(); }

  /// Sends a frame of the simulation's traffic to `to` (counted for the global rounds): `head`
  /// followed by `tail` (Transport::send_parts).
  void send(int to, FrameKind kind, std::span<const std::byte> head,
            std::span<const std::byte> tail = {});
  /// The lower bound this host last promised `to`: a message below it would break the peer's
  /// decisions.
  SimTime promised(int to) const { return protocol_->promised(to); }

  /// Every future frame of the simulation's traffic from another host has a time stamp >= this
  /// (kTimeInfinity with no peers).
  SimTime remote_bound() const;

  /// Takes in every waiting frame; data, replies and transfers go to `sink`.
  void poll(FrameSink& sink);
  /// Called when no LP of this host can run. `network` says what the network model holds back
  /// now (frames taken in may add to it), taken into the host's bounds as one more LP. Returns
  /// when an LP may proceed or the network may decide more (RunEnd::None: remote_bound() passed
  /// what it waits for), or the run ended (RunEnd::Finished, RunEnd::Deadlock).
  RunEnd idle(LocalLps& lps, FrameSink& sink, const std::function<HeldBack()>& network = {});

  const SyncStats& stats() const { return stats_; }
  SyncStats& stats() { return stats_; }

private:
  bool apply(const Decision& d, LocalLps& lps, SimTime held);
  /// A lower bound on the recv timestamp of anything this host may still send to host `to`;
  /// `inputs` bounds what its LPs may still take in from elsewhere.
  SimTime eot(LocalLps& lps, const LocalK& k, SimTime inputs, SimTime network_acts, int to) const;

  Transport& t_;
  SyncOptions options_;
  SyncStats stats_;
  HostLookaheads lookaheads_;
  std::unique_ptr<SyncProtocol> protocol_;
  GlobalRounds rounds_;
};

} // namespace mpisim::protocols
