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
  /// What the last round told `host` of this host: the bound it computed, as this one does.
  SimTime promised(int host) const override { return to_[static_cast<std::size_t>(host)]; }
  /// The bound on future data from `host` alone, before the last global bound.
  SimTime bound_from(int host) const { return from_[static_cast<std::size_t>(host)]; }
  /// The last global bound: every future message has a recv timestamp >= it.
  SimTime floor() const { return floor_; }

private:
  const HostLookaheads& lookaheads_;
  int host_;
  SimTime floor_ = 0; ///< every future message has ts >= floor_ (the last global bound)
  /// Per host: every future message from it has ts >= this (the last round, with the lookahead
  /// between hosts).
  std::vector<SimTime> from_;
  /// Per host: what it holds as this host's `from_` entry (-1 before the first round).
  std::vector<SimTime> to_;
};

} // namespace mpisim::protocols
