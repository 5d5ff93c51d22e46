#include "nmp_cep_protocol.hpp"

#include <algorithm>

namespace mpisim::protocols {

MPISIM_REGISTER_PROTOCOL(nmp_cep_protocol, NmpCepProtocol, "nmp+cep",
                         "the default: null messages where one exchange gives the bound, a global "
                         "round where a chain of exchanges would");

SimTime NmpCepProtocol::remote_bound(HostSet hosts) const {
  // Each peer's bound is the better of its null messages and the last round: a peer may skip a
  // null message that the round already told (holds()).
  return least_of_peers(hosts, host_, hosts_, cep_.floor(),
                        [&](int h) { return std::max(nmp_.bound_from(h), cep_.bound_from(h)); });
}

bool NmpCepProtocol::on_idle(const IdleState& s) {
  const NmpProtocol::Outlook o = nmp_.outlook(s);
  if (o.round_asked) return cep_.on_idle(s);
  if (s.summary.needs_bound && depends_on_third_hosts(o.needed)) {
    nmp_.ask_round(false, s.need);
    return cep_.on_idle(s);
  }
  // Two hosts whose bounds are held down by each other's raise them by a lookahead per exchange
  // of null messages; when the next exchange would free neither, one round gives both their
  // bounds at once. Asks not made yet ride on the round's request: a peer cannot have answered
  // them, and a round costs no more than the null messages that would announce them and answer
  // them. The asks stand: the next time one host alone waits, a null may do. A host none of
  // whose LPs waits for a bound (its need is infinite) is held only through the peer's asks, and
  // answers them with null messages as NMP does: a round on its behalf freed nothing of its own.
  if (s.held_by_peers && s.summary.needs_bound && (!o.asked || !o.exchange_frees)) {
    nmp_.ask_round(true, s.need, o.needed);
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
  for (int h = 0; h < hosts_; ++h)
    if (h != host_) nmp_.holds(h, cep_.promised(h));
}

} // namespace mpisim::protocols
