#include "quantum_protocol.hpp"

#include <algorithm>

namespace mpisim::protocols {

void QuantumProtocol::on_decision(const Decision& d) {
  if (d.kind == Decision::Kind::Window) window_ = std::max(window_, d.window);
}

} // namespace mpisim::protocols
