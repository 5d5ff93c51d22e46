// The conditional event protocol (Chandy-Sherman): the hosts agree on the global lower bound of
// what any of them may still send with one global round; every event below it is safe.
#pragma once

#include "sync_protocol.hpp"

namespace mpisim::protocols {

class CepProtocol final : public SyncProtocol {
public:
  explicit CepProtocol(const ProtocolContext&) {}
  SimTime remote_bound(HostSet) const override { return floor_; }
  bool on_idle(const IdleState&) override { return true; }
  void on_decision(const Decision& d) override;

private:
  SimTime floor_ = 0; ///< every future message has ts >= floor_ (the last global bound)
};

} // namespace mpisim::protocols
