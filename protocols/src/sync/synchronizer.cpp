#include "synchronizer.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "host_clock.hpp"

namespace mpisim::protocols {

Synchronizer::Synchronizer(Transport& transport, const SyncOptions& options)
    : t_(transport), options_(options), lookaheads_(options.lookahead, options.lookahead_between),
      protocol_(ProtocolRegistry::make(options.protocol,
                                       {transport, stats_,
                                        options.quantum > 0 ? options.quantum : options.lookahead,
                                        lookaheads_})),
      rounds_(transport, stats_, [this](Decision& d) { protocol_->decide(d); }) {}

void Synchronizer::send(int to, FrameKind kind, std::span<const std::byte> head,
                        std::span<const std::byte> tail) {
  t_.send_parts(to, kind, head, tail);
  rounds_.count_sent(to);
}

SimTime Synchronizer::remote_bound() const {
  return t_.hosts() > 1 ? protocol_->remote_bound(kAllHosts) : kTimeInfinity;
}

void Synchronizer::poll(FrameSink& sink) {
  Frame f;
  while (t_.poll(f)) {
    switch (f.kind) {
    case FrameKind::Data:
      rounds_.count_received(f.from);
      sink.on_data(f.from, f.body);
      break;
    case FrameKind::Reply:
      rounds_.count_received(f.from);
      sink.on_reply(f.from, f.body);
      break;
    case FrameKind::Transfer:
      rounds_.count_received(f.from);
      sink.on_transfer(f.from, f.body);
      break;
    case FrameKind::Null:
      protocol_->on_null(f.from, decode_null(f.body));
      break;
    case FrameKind::Report:
      if (rounds_.on_report(f.from, f.body)) protocol_->on_finished(f.from);
      break;
    case FrameKind::Decision:
      rounds_.on_decision(f.body);
      break;
    }
  }
}

bool Synchronizer::apply(const Decision& d, LocalLps& lps, SimTime held) {
  protocol_->on_decision(d);
  // What the snapshot found holds for this host if its LPs did nothing since.
  if (const auto h = static_cast<std::size_t>(t_.host()); h < d.activity_of_host.size())
    lps.only_one_acts(d.alone, d.activity_of_host[h]);
  // Other decisions (the quantum protocol's windows) move the protocol's own bounds.
  if (d.kind != Decision::Kind::Bound) return false;
  // A quiescent snapshot of every host: the one-host formula, over all of them. (The protocol
  // also took the decision: what it says of each host bounds the LPs that wait on only some.)
  const LocalK k{d.g, d.g2, d.arg};
  return lps.raise(false, [&](std::int64_t id) {
    const SimTime b = local_eit(k, id, options_.lookahead, held);
    return LpBound{b, b};
  });
}

SimTime Synchronizer::eot(LocalLps& lps, const LocalK& k, SimTime inputs, SimTime network_acts,
                          int to) const {
  if (lps.not_done() == 0 && network_acts >= kTimeInfinity) return kTimeInfinity;
  const SimTime to_peer = lookaheads_.direct(t_.host(), to);
  // Whatever chain of messages inside this host leads to a send toward `to`, its last hop is
  // one of this host's LPs sending to one of `to`'s: it takes at least `to_peer` after the
  // chain began (at an LP's earliest action, or at an arrival from another host).
  if (options_.static_lookahead)
    return plus(std::min(lps.earliest_action(), network_acts), to_peer);
  return plus(std::min(action_of(k.g, options_.lookahead), inputs), to_peer);
}

RunEnd Synchronizer::idle(LocalLps& lps, FrameSink& sink,
                          const std::function<HeldBack()>& held_back) {
  const auto start = mpilite::HostSteadyClock::now();
  const auto done = [&](RunEnd o) {
    stats_.blocked_wall_s +=
        std::chrono::duration<double>(mpilite::HostSteadyClock::now() - start).count();
    return o;
  };
  const bool peers = t_.hosts() > 1;
  const SimTime L = options_.lookahead;
  // No LP runs until this call returns, so an LP that waits only within the host goes on doing
  // so (frames from elsewhere can only end a wait for a reply, which makes it conservative).
  const bool closed = peers && lps.closed();
  for (int spins = 0;; ++spins) {
    poll(sink);
    const HeldBack network = held_back ? held_back() : HeldBack{};
    bool woke = false;
    if (auto d = rounds_.take()) {
      if (d->kind == Decision::Kind::Finish) return done(RunEnd::Finished);
      if (d->kind == Decision::Kind::Deadlock) return done(RunEnd::Deadlock);
      woke = apply(*d, lps, network.arrivals);
    }
    // The network decides more once no frame can come before what it waits for.
    if (network.waits < remote_bound()) return done(RunEnd::None);
    // K below covers only blocked LPs: one that a frame or a decision has just made ready may
    // send from its clock, earlier than every K. So the host's own bounds (and what it tells its
    // peers) wait until no LP of it can run.
    if (woke || lps.any_ready() || lps.moved()) {
      if (!peers) lps.only_one_acts(-1, lps.activity());
      return done(RunEnd::None);
    }
    // The network model as one more LP of the host: what it still holds may wake a rank, or
    // leave for another host, from `acts` on. No LP id is negative, so it takes no LP's place.
    const auto host_k = [&](const HeldBack& net) {
      constexpr std::int64_t kNetworkLp = -2;
      LocalK k = local_k(lps, L);
      k.add(kNetworkLp, plus(net.acts, L));
      return k;
    };
    const LocalK k = host_k(network);
    const Summary summary{k.g,
                          k.arg,
                          k.g2,
                          lps.not_done() + (network.acts < kTimeInfinity ? 1 : 0),
                          k.g < kTimeInfinity,
                          lps.activity()};
    // A K with a single LP (the network is one when it holds something): every other LP of the
    // host can act only on a message that this one would cause. On one host that is the run;
    // with others, a global round says whether it holds everywhere, when that matters.
    const std::int64_t sole = k.g2 >= kTimeInfinity && k.arg >= 0 ? k.arg : -1;
    if (!peers)
      lps.only_one_acts(sole, summary.activity);
    else if (lps.only_one_acts_here(sole))
      rounds_.report(summary);
    const SimTime held = network.arrivals;
    const SimTime remote = std::min(remote_bound(), held);
    // What other hosts send can reach this host's LPs only through a receive of theirs. When
    // every LP waits only for LPs of this host, none takes anything from elsewhere before one of
    // them acts (no earlier than K - L, as local_eit assumes): until then the host is alone, and
    // its current decisions and what it promises its peers need no bound from them.
    const SimTime inputs = closed ? held : remote;
    // Legs from any host may reach the network's nodes before what it waits for.
    HostSet wanted = network.waits < kTimeInfinity ? kAllHosts : 0;
    const auto bound = [&](std::int64_t id) {
      const SimTime wide = local_eit(k, id, L, remote);
      if (!peers) return LpBound{wide, wide};
      LpInputs in{wide, -1, {}, held};
      if (closed) {
        in.alone = local_eit(k, id, L, inputs);
      } else {
        in.from = lps.sources(id);
        // A message from a local source may have been caused by any host's: then the bound
        // needs every host's.
        wanted |= in.from.local ? kAllHosts : in.from.remote;
      }
      return protocol_->lp_bound(in);
    };
    if (lps.raise(options_.static_lookahead, bound) || lps.any_ready() || lps.moved())
      return done(RunEnd::None);
    // A raised bound may let the network decide what it held back for it (a request-to-send's
    // arrival at a receiver that waits for its bound). Only then is the host stuck: one host
    // alone that reported here was judged deadlocked (global_rounds.cpp).
    const HeldBack after = held_back ? held_back() : HeldBack{};
    if (after.waits < remote_bound()) return done(RunEnd::None);
    // It may also move an LP's next decision, or the network's, without waking anyone: K above
    // is stale then, and would understate where the host stands (alone, a false deadlock).
    if (host_k(after) != k) continue;
    IdleState s;
    // What the network holds keeps the run going, as an unfinished LP would.
    s.summary = summary;
    s.wanted = wanted;
    s.eot_to = [&](int to) { return eot(lps, k, inputs, network.acts, to); };
    s.need = action_of(k.g, L);
    s.held_by_peers = !options_.static_lookahead && inputs < s.need;
    s.min_clock = [&] { return lps.min_clock(); };
    if (protocol_->on_idle(s)) rounds_.report(s.summary);
    // Poll hard for a short while (a reply is often microseconds away), then let other host
    // processes that share this core run.
    if (spins > 64) t_.pause();
  }
}

} // namespace mpisim::protocols
