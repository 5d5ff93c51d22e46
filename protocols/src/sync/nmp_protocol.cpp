#include "nmp_protocol.hpp"

#include <algorithm>

#include "global_rounds.hpp"
#include "local_bound.hpp"

namespace mpisim::protocols {

MPISIM_REGISTER_PROTOCOL(nmp_protocol, NmpProtocol, "nmp",
                         "null messages (Chandy-Misra-Bryant): each host sends the peers that ask "
                         "a lower bound on what it may still send them");

NmpProtocol::NmpProtocol(const ProtocolContext& c)
    : t_(c.transport), stats_(c.stats), lookaheads_(c.lookaheads),
      channel_(static_cast<std::size_t>(c.transport.hosts()), 0),
      null_sent_(static_cast<std::size_t>(c.transport.hosts()), -1),
      peer_wants_(static_cast<std::size_t>(c.transport.hosts()), 0),
      peer_need_(static_cast<std::size_t>(c.transport.hosts()), 0),
      met_need_(static_cast<std::size_t>(c.transport.hosts()), -1),
      step_(static_cast<std::size_t>(c.transport.hosts()), 0),
      wants_sent_(static_cast<std::size_t>(c.transport.hosts()), 0) {}

SimTime NmpProtocol::remote_bound(HostSet hosts) const {
  return least_of_peers(hosts, t_.host(), t_.hosts(), floor_, [&](int h) { return bound_from(h); });
}

void NmpProtocol::on_null(int from, const NullFrame& f) {
  const auto i = static_cast<std::size_t>(from);
  channel_[i] = std::max(channel_[i], f.value);
  peer_wants_[i] = static_cast<char>(f.wants);
  // A need already met and guessed past is old news (a null sent before the last round).
  if (f.need > met_need_[i]) {
    peer_need_[i] = f.need;
    note_met_need(i);
  }
  round_asked_ = std::max(round_asked_, f.round);
}

void NmpProtocol::on_decision(const Decision& d) {
  if (d.kind == Decision::Kind::Bound) {
    floor_ = std::max(floor_, d.g);
    // The round's snapshot says what each host's LPs waited for. A need above g is still
    // unmet and at least as fresh as the peer's last null message (a host that joined a round
    // it did not ask for sent none).
    for (std::size_t i = 0; i < peer_need_.size(); ++i) {
      if (i < d.k_of_host.size() && static_cast<int>(i) != t_.host()) {
        const SimTime n = action_of(d.k_of_host[i], lookaheads_.smallest());
        if (n > floor_) peer_need_[i] = n;
      }
      note_met_need(i);
    }
  }
  decisions_ = std::max(decisions_, d.epoch);
}

void NmpProtocol::on_finished(int host) {
  const auto i = static_cast<std::size_t>(host);
  channel_[i] = kTimeInfinity;
  peer_wants_[i] = 0;
}

void NmpProtocol::holds(int host, SimTime bound) {
  auto& sent = null_sent_[static_cast<std::size_t>(host)];
  sent = std::max(sent, bound);
}

void NmpProtocol::note_met_need(std::size_t peer) {
  const SimTime n = peer_need_[peer];
  SimTime& met = met_need_[peer];
  if (n >= floor_ || n <= met) return;
  step_[peer] = met >= 0 ? n - met : 0;
  met = n;
}

SimTime NmpProtocol::judged_need(std::size_t peer) const {
  // Every LP's bound is at least the last round's g: a need below it has been met, and what the
  // peer's LPs wait for next is unknown until it says. Judged from the met need, an answer would
  // look useful when it can no longer be: guess the next a step as long as the last one beyond g.
  const SimTime n = peer_need_[peer];
  if (n >= floor_) return n;
  return step_[peer] > 0 ? plus(floor_, step_[peer]) : kTimeInfinity;
}

NmpProtocol::Outlook NmpProtocol::outlook(const IdleState& s) const {
  Outlook o;
  o.round_asked = round_asked_ > decisions_;
  o.needed = needed(s.wanted);
  o.asked = asked(o.needed);
  // Read only by a host held by its peers that asked them all (NMP+CEP's rule): not worth the
  // promises it computes otherwise.
  if (!o.round_asked && o.asked && s.held_by_peers) o.exchange_frees = exchange_frees(o.needed, s);
  return o;
}

HostSet NmpProtocol::needed(HostSet wanted) const {
  // A host whose bound a peer needs needs all its own peers' bounds to compute it; otherwise it
  // asks only the hosts of its receives' potential sources.
  const bool asked =
      std::any_of(peer_wants_.begin(), peer_wants_.end(), [](char w) { return w != 0; });
  return asked ? kAllHosts : wanted;
}

bool NmpProtocol::exchange_frees(HostSet hosts, const IdleState& s) const {
  for (int h = 0; h < t_.hosts(); ++h) {
    const auto i = static_cast<std::size_t>(h);
    if (h == t_.host() || !contains(hosts, h) || !peer_wants_[i]) continue;
    // Promises held down by each other's grow a lookahead per hop: this host's, the peer's
    // answer, this host's next.
    const SimTime v = s.eot_to(h);
    const SimTime answer = plus(v, lookaheads_.direct(h, t_.host()));
    if (answer <= s.need && plus(answer, lookaheads_.direct(t_.host(), h)) <= judged_need(i))
      return false;
  }
  return true;
}

bool NmpProtocol::asked(HostSet hosts) const {
  for (int h = 0; h < t_.hosts(); ++h)
    if (h != t_.host() && contains(hosts, h) && !wants_sent_[static_cast<std::size_t>(h)])
      return false;
  return true;
}

void NmpProtocol::ask_round(bool keep_asks, SimTime need, HostSet asks) {
  // The values repeat promises already made: a request carries no bound of its own.
  for (int h = 0; h < t_.hosts(); ++h) {
    const auto i = static_cast<std::size_t>(h);
    if (h == t_.host()) continue;
    wants_sent_[i] = keep_asks && (wants_sent_[i] || contains(asks, h));
    t_.send(h, FrameKind::Null,
            encode(NullFrame{std::max<SimTime>(null_sent_[i], 0), wants_sent_[i] != 0,
                             decisions_ + 1, need}));
    ++stats_.null_messages; // a null batch, but counted in the round it asks for
  }
  round_asked_ = std::max(round_asked_, decisions_ + 1);
}

bool NmpProtocol::on_idle(const IdleState& s) {
  // A host whose LPs have all finished needs no bound: its last null message withdraws its asks,
  // so that a peer finishing later owes it none.
  const bool finished = s.summary.not_done == 0;
  const HostSet wanted = finished ? 0 : needed(s.wanted);
  bool any = false;
  SimTime lowest = -1;
  for (int h = 0; h < t_.hosts(); ++h) {
    // The coordinator learns that this host finished from the report asked for below, which
    // arrives after every frame this host sent (on_finished): no null message needed.
    if (h == t_.host() || (finished && h == kCoordinator)) continue;
    const auto i = static_cast<std::size_t>(h);
    const bool want = contains(wanted, h);
    // A peer that promised never to send again sends no null message either: withdrawing an ask
    // from it would tell it nothing.
    const bool announce =
        wants_sent_[i] != static_cast<char>(want) && (want || channel_[i] < kTimeInfinity);
    if (!announce && !peer_wants_[i]) continue;
    const SimTime v = s.eot_to(h);
    if (!announce && v <= null_sent_[i]) continue;
    null_sent_[i] = std::max(null_sent_[i], v);
    wants_sent_[i] = static_cast<char>(want);
    t_.send(h, FrameKind::Null, encode(NullFrame{v, want, 0, s.need}));
    ++stats_.null_messages;
    if (lowest < 0) lowest = s.min_clock();
    if (v < kTimeInfinity && lowest < kTimeInfinity)
      stats_.lookahead_sum_s += mpilite::time_to_seconds(v - lowest);
    any = true;
  }
  if (any) ++stats_.null_rounds;
  return finished || s.summary.k_min >= kTimeInfinity;
}

} // namespace mpisim::protocols
