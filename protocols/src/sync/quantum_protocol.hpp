// The quantum protocol (the baseline every figure is normalized to): all hosts advance in
// windows of Q <= Lmin with a global round at the end of each window. Its whole rule is here and
// in quantum_protocol.cpp: every LP's bound is the end of the current window (lp_bound), and the
// coordinator moves the window by Q at every quiescent snapshot (decide).
#pragma once

#include "sync_protocol.hpp"

namespace mpisim::protocols {

class QuantumProtocol final : public SyncProtocol {
public:
  explicit QuantumProtocol(const ProtocolContext& c) : quantum_(c.quantum) {}
  SimTime remote_bound(HostSet) const override { return window_; }
  LpBound lp_bound(const LpInputs& in) const override;
  void decide(Decision& d) override;
  bool on_idle(const IdleState&) override { return true; }
  void on_decision(const Decision& d) override;

private:
  SimTime quantum_;
  SimTime window_ = 0;  ///< the end of the current window: every LP's bound
  SimTime decided_ = 0; ///< the coordinator: the end of the last window it decided
};

} // namespace mpisim::protocols
