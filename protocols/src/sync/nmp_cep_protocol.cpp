#include "nmp_cep_protocol.hpp"

#include <algorithm>

namespace mpisim::protocols {

SimTime NmpCepProtocol::remote_bound(HostSet hosts) const {
  return std::max(nmp_.remote_bound(hosts), cep_.remote_bound(hosts));
}

bool NmpCepProtocol::on_idle(const IdleState& s) {
  if (nmp_.round_asked()) return cep_.on_idle(s);
  if (s.summary.needs_bound && depends_on_third_hosts(nmp_.needed(s.wanted))) {
    nmp_.ask_round();
    return cep_.on_idle(s);
  }
  return nmp_.on_idle(s);
}

bool NmpCepProtocol::depends_on_third_hosts(HostSet needed) const {
  // A peer's promise is bounded by what its own peers promised it: with a third host anywhere,
  // any needed peer's bound waits on another host's, one exchange at a time.
  if (hosts_ <= 2) return false;
  for (int h = 0; h < hosts_; ++h)
    if (h != host_ && contains(needed, h)) return true;
  return false;
}

void NmpCepProtocol::on_decision(const Decision& d) {
  nmp_.on_decision(d);
  cep_.on_decision(d);
}

} // namespace mpisim::protocols
