#include "quantum_protocol.hpp"

#include <algorithm>

namespace mpisim::protocols {

MPISIM_REGISTER_PROTOCOL(quantum_protocol, QuantumProtocol, "quantum",
                         "the baseline: every host advances in windows of MPISIM_QUANTUM, with a "
                         "global round at the end of each");

LpBound QuantumProtocol::lp_bound(const LpInputs& in) const {
  // Not the exact bounds within the host, even alone: the window alone, as the baseline does.
  const SimTime w = std::min(window_, in.held);
  return {w, w};
}

void QuantumProtocol::decide(Decision& d) {
  Decision w;
  w.kind = Decision::Kind::Window;
  w.epoch = d.epoch;
  decided_ += quantum_;
  w.window = decided_;
  d = w;
}

void QuantumProtocol::on_decision(const Decision& d) {
  if (d.kind == Decision::Kind::Window) window_ = std::max(window_, d.window);
}

} // namespace mpisim::protocols
