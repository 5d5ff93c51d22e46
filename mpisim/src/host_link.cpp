#include "host_link.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "matching.hpp"

namespace mpisim {
namespace {

using mpilite::kTimeInfinity;
using protocols::FrameKind;

struct DataHeader {
  std::int32_t src, dst, context, tag;
  std::uint64_t seq;
  SimTime ts;
  std::uint64_t bytes;
  std::uint64_t reply_to;
  std::uint8_t protocol;
};

protocols::ProtocolKind protocol_kind(Protocol p) {
  switch (p) {
  case Protocol::Quantum:
    return protocols::ProtocolKind::Quantum;
  case Protocol::Nmp:
    return protocols::ProtocolKind::Nmp;
  case Protocol::Cep:
    return protocols::ProtocolKind::Cep;
  case Protocol::NmpCep:
    return protocols::ProtocolKind::NmpCep;
  }
  return protocols::ProtocolKind::NmpCep;
}

SimTime plus(SimTime t, SimTime d) {
  return t >= kTimeInfinity ? kTimeInfinity : t + d;
}

} // namespace

HostLink::HostLink(const Config& config, int* argc, char*** argv)
    : config_(config), transport_(argc, argv) {}

void HostLink::attach(mpilite::World& world, const RankMap& map, SimTime lookahead) {
  world_ = &world;
  map_ = &map;
  lookahead_ = lookahead;
  sync_ = std::make_unique<protocols::HostSync>(transport_, protocol_kind(config_.protocol),
                                                config_.quantum.value_or(lookahead));
}

void HostLink::send_message(mpilite::Message* m) {
  const DataHeader h{m->src,   m->dst,      m->context,
                     m->tag,   m->seq,      m->ts,
                     m->bytes, m->reply_to, static_cast<std::uint8_t>(m->protocol)};
  std::vector<std::byte> body(sizeof h + m->bytes);
  std::memcpy(body.data(), &h, sizeof h);
  if (m->bytes) std::memcpy(body.data() + sizeof h, m->packed, m->bytes);
  const int to = map_->host_of(m->dst);
  // A message below a promised bound would make the other host's decisions wrong: never send
  // one silently.
  if (m->ts < sync_->promised(to)) {
    std::fprintf(
        stderr,
        "mpisim: internal error: host %d sends a message (rank %d to %d, ts %lld ps) below "
        "the bound it promised host %d (%lld ps)\n",
        host(), m->src, m->dst, static_cast<long long>(m->ts), to,
        static_cast<long long>(sync_->promised(to)));
    transport_.abort_all(70);
  }
  transport_.send(to, FrameKind::Data, body.data(), body.size());
  sync_->count_sent(to);
  world_->free_message(m);
}

void HostLink::send_reply(const mpilite::Reply& reply) {
  const int to = map_->host_of(reply.to);
  transport_.send(to, FrameKind::Reply, &reply, sizeof reply);
  sync_->count_sent(to);
}

void HostLink::handle(const protocols::Frame& f) {
  switch (f.kind) {
  case FrameKind::Data: {
    DataHeader h;
    if (f.body.size() < sizeof h) throw std::runtime_error("truncated message between hosts");
    std::memcpy(&h, f.body.data(), sizeof h);
    mpilite::Message* m = world_->new_message();
    m->src = h.src;
    m->dst = h.dst;
    m->context = h.context;
    m->tag = h.tag;
    m->seq = h.seq;
    m->ts = h.ts;
    m->bytes = h.bytes;
    m->reply_to = h.reply_to;
    m->protocol = static_cast<mpilite::SendProtocol>(h.protocol);
    std::byte* payload = mpilite::allocate_payload(*m, h.bytes);
    if (h.bytes) std::memcpy(payload, f.body.data() + sizeof h, h.bytes);
    sync_->count_received(f.from);
    mpilite::deliver(*world_, m);
    break;
  }
  case FrameKind::Reply: {
    mpilite::Reply r;
    std::memcpy(&r, f.body.data(), sizeof r);
    sync_->count_received(f.from);
    mpilite::complete_reply(*world_, r);
    break;
  }
  default:
    sync_->on_frame(f);
  }
}

bool HostLink::apply_decision(const protocols::Decision& d) {
  using Kind = protocols::Decision::Kind;
  if (d.kind == Kind::Finish || d.kind == Kind::Deadlock) {
    end_ = d.kind == Kind::Finish ? End::Finish : End::Deadlock;
    return false;
  }
  if (d.kind != Kind::Bound) return false; // a window moves remote_bound()
  // A quiescent snapshot of every host: the one-host formula, over all of them.
  return raise_bounds(*world_, [&](const mpilite::Rank& r) {
    const SimTime b = r.id == d.arg ? std::min(d.g2, plus(d.g, lookahead_)) : d.g;
    return RankBound{b, b};
  });
}

SimTime HostLink::eot(const LocalK& k, SimTime remote) const {
  const auto& sched = world_->scheduler();
  if (sched.done_count() == world_->ranks().size()) return kTimeInfinity;
  if (config_.lookahead == Lookahead::Dynamic) return std::min(k.g, plus(remote, lookahead_));
  // Static lookahead: what every unfinished rank could send one latency after the earliest time
  // it can act: its clock, or the post time of a receive that may answer an incoming message,
  // but not before its own input bound.
  SimTime low = kTimeInfinity;
  for (const auto& r : world_->ranks()) {
    if (r->task.state == mpilite::TaskState::Done) continue;
    SimTime act = r->clock;
    for (const mpilite::Request* q : r->posted)
      act = std::min(act, q->post_time);
    low = std::min(low, std::max(act, r->eit));
  }
  return plus(low, lookahead_);
}

void HostLink::add_host_of(int world_rank, Sources& s) const {
  const int h = map_->host_of(world_rank);
  if (h == host())
    s.local = true;
  else
    s.remote |= protocols::host_bit(h);
}

HostLink::Sources HostLink::potential_sources(const mpilite::Rank& rank) const {
  // A test or wait that needs a decision may complete any of the rank's requests.
  if (rank.decide_time < kTimeInfinity) return {true, protocols::kAllHosts};
  Sources s;
  for (const mpilite::Request* q : rank.posted) {
    if (!q->undecided) continue;
    if (q->source != MPI_ANY_SOURCE) {
      add_host_of(q->source, s);
    } else if (q->comm->self) {
      s.local = true;
    } else if (q->comm->group->is_identity()) {
      return {true, protocols::kAllHosts}; // everyone
    } else {
      for (int m = 0; m < q->comm->size; ++m)
        add_host_of(q->comm->group->world(m), s);
    }
  }
  return s;
}

void HostLink::poll() {
  protocols::Frame f;
  while (transport_.poll(f))
    handle(f);
}

bool HostLink::idle() {
  const auto start = std::chrono::steady_clock::now();
  auto account = [&] {
    sync_->stats().blocked_wall_s +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  auto& sched = world_->scheduler();
  const bool quantum = config_.protocol == Protocol::Quantum;
  const bool all_ranks = config_.lookahead == Lookahead::Static;
  const auto progressed = [&] {
    sync_->note_progress();
    account();
    return true;
  };
  for (int spins = 0;; ++spins) {
    poll();
    bool woke = false;
    if (auto d = sync_->take_decision()) {
      woke = apply_decision(*d);
      if (end_ != End::None) {
        account();
        return false;
      }
    }
    // K below covers only blocked ranks: one that a frame or a decision has just made ready may
    // send from its clock, earlier than every K. So the host's own bounds (and what it tells its
    // peers) wait until no rank of it can run.
    if (woke || sched.has_ready()) return progressed();
    const LocalK k = local_k(*world_, lookahead_);
    const SimTime remote = sync_->remote_bound();
    std::uint64_t wanted = 0;
    const auto eit = [&](const mpilite::Rank& r) {
      if (quantum) return RankBound{remote, remote};
      const SimTime wide = local_eit(k, r, lookahead_, remote);
      const Sources from = potential_sources(r);
      // A message from a local source may have been caused by any host's: then the bound needs
      // every host's.
      wanted |= from.local ? protocols::kAllHosts : from.remote;
      const SimTime local = from.local ? wide : kTimeInfinity;
      return RankBound{std::min(local, sync_->remote_bound(from.remote)), wide};
    };
    if (raise_bounds(*world_, eit, all_ranks) || sched.has_ready()) return progressed();
    const auto not_done = static_cast<std::int64_t>(world_->ranks().size() - sched.done_count());
    const protocols::Summary s{k.g, k.arg, k.g2, not_done, !world_->undecided().empty(), wanted};
    sync_->on_idle(
        s, [&](int) { return eot(k, remote); },
        [&] {
          SimTime low = kTimeInfinity;
          for (const auto& r : world_->ranks())
            if (r->task.state != mpilite::TaskState::Done) low = std::min(low, r->clock);
          return low;
        });
    // Poll hard for a short while (a reply is often microseconds away), then let other host
    // processes that share this core run.
    if (spins > 64) sched_yield();
  }
}

} // namespace mpisim
