#include "cep_protocol.hpp"

#include <algorithm>

namespace mpisim::protocols {

void CepProtocol::on_decision(const Decision& d) {
  if (d.kind == Decision::Kind::Bound) floor_ = std::max(floor_, d.g);
}

} // namespace mpisim::protocols
