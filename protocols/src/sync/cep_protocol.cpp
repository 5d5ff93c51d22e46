#include "cep_protocol.hpp"

#include <algorithm>

namespace mpisim::protocols {

MPISIM_REGISTER_PROTOCOL(cep_protocol, CepProtocol, "cep",
                         "conditional events (Chandy-Sherman): one global round over a quiescent "
                         "snapshot gives every host the global lower bound");

CepProtocol::CepProtocol(const ProtocolContext& c)
    : lookaheads_(c.lookaheads), host_(c.transport.host()),
      from_(static_cast<std::size_t>(c.transport.hosts()), 0),
      to_(static_cast<std::size_t>(c.transport.hosts()), -1) {}

SimTime CepProtocol::remote_bound(HostSet hosts) const {
  return least_of_peers(hosts, host_, static_cast<int>(from_.size()), floor_,
                        [&](int h) { return bound_from(h); });
}

void CepProtocol::on_decision(const Decision& d) {
  if (d.kind != Decision::Kind::Bound) return;
  floor_ = std::max(floor_, d.g);
  if (d.k_of_host.size() != from_.size()) return;
  // Host j sends from an LP that acts no earlier than the snapshot's earliest action on some
  // host k plus the chain from k to j, and its message takes the lookahead from j to the
  // receiving host. A later round's snapshot is later, so the bounds only grow. Every host
  // computes the same bounds, so this one also knows what each peer now holds of it.
  const int hosts = static_cast<int>(from_.size());
  const auto acts_on = [&](int j) {
    SimTime act = kTimeInfinity;
    for (int k = 0; k < hosts; ++k)
      act = std::min(
          act, plus(action_of(d.k_of_host[static_cast<std::size_t>(k)], lookaheads_.smallest()),
                    lookaheads_.path(k, j)));
    return act;
  };
  const SimTime own = acts_on(host_);
  for (int j = 0; j < hosts; ++j) {
    if (j == host_) continue;
    const auto i = static_cast<std::size_t>(j);
    from_[i] = std::max(from_[i], plus(acts_on(j), lookaheads_.direct(j, host_)));
    to_[i] = std::max(to_[i], plus(own, lookaheads_.direct(host_, j)));
  }
}

} // namespace mpisim::protocols
