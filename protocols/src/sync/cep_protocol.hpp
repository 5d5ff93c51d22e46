// The conditional event protocol (Chandy-Sherman): the hosts agree on the global lower bound of
// what any of them may still send with one global round; every event below it is safe.
#pragma once

#include "sync_protocol.hpp"

namespace mpisim::protocols {

class CepProtocol final : public SyncProtocol {
public:
  explicit CepProtocol(const ProtocolContext& c);
  SimTime remote_bound(HostSet hosts) const override;
  bool on_idle(const IdleState&) override { return true; }
  void on_decision(const Decision& d) override;
  void on_finished(int host) override { from_[static_cast<std::size_t>(host)] = kTimeInfinity; }

private:
  const HostLookaheads& lookaheads_;
  int host_;
  SimTime floor_ = 0; ///< every future message has ts >= floor_ (the last global bound)
  /// Per host: every future message from it has ts >= this (the last round, with the lookahead
  /// between hosts).
  std::vector<SimTime> from_;
};

} // namespace mpisim::protocols
