// The quantum protocol (the baseline every figure is normalized to): all hosts advance in
// windows of Q <= Lmin with a global round at the end of each window.
#pragma once

#include "sync_protocol.hpp"

namespace mpisim::protocols {

class QuantumProtocol final : public SyncProtocol {
public:
  explicit QuantumProtocol(const ProtocolContext& c) : quantum_(c.quantum) {}
  SimTime remote_bound(HostSet) const override { return window_; }
  bool windowed() const override { return true; }
  Decision::Kind round_kind() const override { return Decision::Kind::Window; }
  bool on_idle(const IdleState&) override { return true; }
  void on_decision(const Decision& d) override;
  SimTime quantum() const { return quantum_; }

private:
  SimTime quantum_;
  SimTime window_ = 0;
};

} // namespace mpisim::protocols
