#include "nmp_cep_protocol.hpp"

#include <algorithm>

namespace mpisim::protocols {
namespace {

// Idle passes without progress of null messages after which a global round is asked for.
constexpr int kStalledPassesBeforeRound = 16;

} // namespace

SimTime NmpCepProtocol::remote_bound(HostSet hosts) const {
  return std::max(nmp_.remote_bound(hosts), cep_.remote_bound(hosts));
}

bool NmpCepProtocol::on_idle(const IdleState& s) {
  if (awaiting_round_) return cep_.on_idle(s);
  const bool passive = nmp_.on_idle(s);
  stalled_passes_ = nmp_.stalled() ? stalled_passes_ + 1 : 0;
  if (passive) return true;
  awaiting_round_ = s.summary.needs_bound && stalled_passes_ >= kStalledPassesBeforeRound;
  return awaiting_round_ && cep_.on_idle(s);
}

void NmpCepProtocol::on_decision(const Decision& d) {
  nmp_.on_decision(d);
  cep_.on_decision(d);
  stalled_passes_ = 0;
  awaiting_round_ = false;
}

} // namespace mpisim::protocols
