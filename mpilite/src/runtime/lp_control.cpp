#include "lp_control.hpp"

#include <algorithm>
#include <cstring>

#include "comm.hpp"
#include "matching.hpp"
#include "world.hpp"

namespace mpilite {

void for_each_undecided(World& w, const std::function<void(Rank&, SimTime)>& visit) {
  auto& list = w.undecided();
  std::erase_if(list, [](Rank* r) {
    if (std::min(r->undecided_key, r->decide_time) < kTimeInfinity &&
        r->task.state != TaskState::Done)
      return false;
    r->in_undecided_list = false;
    return true;
  });
  // A copy: deciding may add ranks to the list.
  const std::vector<Rank*> ranks(list.begin(), list.end());
  for (Rank* r : ranks)
    visit(*r, std::min(r->undecided_key, r->decide_time));
}

void for_each_blocked(World& w, const std::function<void(Rank&)>& visit) {
  for (const auto& r : w.ranks())
    if (r->task.state == TaskState::Blocked) visit(*r);
}

namespace {

/// What the network started for `r` since the bounds were made.
SimTime network_floor(const World& w, const Rank& r) {
  return r.floor_epoch == w.network_epoch() ? r.network_floor : kTimeInfinity;
}

} // namespace

bool raise_input_bound(World& w, Rank& r, SimTime now, SimTime keep) {
  // A narrowed bound holds only for what the rank waits for now: it must not outlive them.
  const SimTime kept = std::min(std::max(r.eit, keep), network_floor(w, r));
  r.eit = std::min(std::max(r.eit, now), network_floor(w, r));
  const auto before = r.task.state;
  if (r.undecided_key < kTimeInfinity) progress_matching(w, r);
  if (r.decide_time < r.eit) w.scheduler().wake(r.task);
  r.eit = std::min(kept, network_floor(w, r)); // the matching may have started sends
  return before == TaskState::Blocked && r.task.state == TaskState::Ready;
}

std::uint64_t activity(const World& w) {
  return w.local_messages + w.remote_messages + w.from_hosts + w.quiet_steps;
}

namespace {

/// Whatever moved since the last finding (a message, a collective's step) may have been the
/// rank's own doing, answered: its polls count again from zero.
World::SoleActor& found_alone(World& w, int world_rank) {
  World::SoleActor& s = w.sole_actor;
  const std::uint64_t now = activity(w);
  if (s.rank != world_rank || s.activity != now) s = {world_rank, now};
  return s;
}

} // namespace

void only_one_acts(World& w, int world_rank, std::uint64_t as_of) {
  if (as_of != activity(w)) return;
  found_alone(w, world_rank).whole_run = world_rank >= 0;
}

bool only_one_acts_here(World& w, int world_rank) {
  const World::SoleActor& s = found_alone(w, world_rank);
  return s.asks_run && !s.whole_run;
}

void await_network(World& w, Rank& r, SimTime at) {
  r.eit = std::min(r.eit, at);
  if (r.floor_epoch != w.network_epoch()) {
    r.floor_epoch = w.network_epoch();
    r.network_floor = kTimeInfinity;
  }
  r.network_floor = std::min(r.network_floor, at);
}

bool waits_on_any_source(const Rank& r) {
  return r.decide_time < kTimeInfinity;
}

namespace {

/// Calls `source(world_rank)` for each rank that may send what `q` (a receive of `r`) waits for;
/// returns false (having called nothing more) when that is every rank of the world.
bool for_each_source_of(const Rank& r, const Request& q, const std::function<void(int)>& source) {
  const Comm& c = *q.comm;
  if (q.source != MPI_ANY_SOURCE) {
    source(q.source);
  } else if (c.self) {
    source(r.id);
  } else if (!c.inter() && c.group->is_identity()) {
    return false;
  } else {
    for (int m = 0; m < c.peer_count(); ++m)
      source(c.peer_world(m, r.id));
  }
  return true;
}

} // namespace

bool for_each_potential_source(const Rank& r, const std::function<void(int)>& source) {
  for (const Request* q : r.posted)
    if (q->undecided && !for_each_source_of(r, *q, source)) return false;
  return true;
}

bool waits_only_within_host(World& w, const Rank& r) {
  if (waits_on_any_source(r) || r.remote_replies > 0) return false;
  bool local = true;
  for (const Request* q : r.posted) {
    const bool some = for_each_source_of(
        r, *q, [&](int world_rank) { local = local && w.local(world_rank) != nullptr; });
    if (!some) return w.whole_world_here();
    if (!local) return false;
  }
  return true;
}

bool all_wait_within_host(World& w) {
  auto& listed = w.may_wait_elsewhere();
  // The latest listed first: a rank that just posted is the likeliest to wait elsewhere.
  while (!listed.empty()) {
    Rank* r = listed.back();
    if (r->task.state != TaskState::Done && !waits_only_within_host(w, *r)) return false;
    r->in_elsewhere_list = false;
    listed.pop_back();
  }
  return true;
}

SimTime earliest_action(const Rank& r) {
  SimTime act = r.clock;
  for (const Request* q : r.posted)
    act = std::min(act, q->post_time);
  return std::max(act, r.eit);
}

Envelope envelope_of(const Message& m) {
  return {m.src,        m.dst,      m.context,
          m.tag,        m.seq,      m.ts,
          m.bytes,      m.reply_to, static_cast<std::uint8_t>(m.protocol),
          m.partitions, m.pending,  0};
}

const std::byte* payload_of(const Message& m) {
  return m.packed;
}

void deliver_from_host(World& w, const Envelope& e, std::span<const std::byte> payload) {
  ++w.from_hosts;
  Message* m = w.new_message();
  m->src = e.src;
  m->dst = e.dst;
  m->context = e.context;
  m->tag = e.tag;
  m->seq = e.seq;
  m->ts = e.ts;
  m->bytes = e.bytes;
  m->reply_to = e.reply_to;
  m->protocol = static_cast<SendProtocol>(e.protocol); // checked by the frame's reader
  m->partitions = e.partitions;
  m->pending = e.pending;
  std::byte* data = allocate_payload(*m, e.bytes);
  if (e.bytes) std::memcpy(data, payload.data(), e.bytes);
  if (e.path_bytes)
    m->path = std::make_unique<CritPath>(
        CritPath::decode(payload.subspan(e.bytes), "a message from another host process"));
  // Until the network decides its arrival, the message's time is the lower bound it gives.
  if (m->pending)
    m->ts = w.kernel().timing.received_from_host(
        {LegKind::Eager, m->src, m->dst, m->bytes, e.ts, m->seq, m}, e.ts);
  deliver(w, m);
}

void transfer_from_host(World& w, const Transfer& t) {
  ++w.from_hosts;
  const DataTransfer& d = t.data;
  if (t.clear_to_send) {
    if (Rank* r = w.local(d.src)) --r->remote_replies;
    plan_data(w, d);
    return;
  }
  if (Rank* r = w.local(d.dst)) --r->remote_replies;
  if (t.pending)
    w.kernel().timing.received_from_host(
        {LegKind::Data, d.src, d.dst, d.bytes, d.start, d.seq, nullptr, &d}, t.ts);
  else
    finish_data(w, d, t.ts, t.ts);
}

void reply_from_host(World& w, const Reply& reply) {
  ++w.from_hosts;
  if (Rank* r = w.local(reply.to)) --r->remote_replies;
  complete_reply(w, reply);
}

} // namespace mpilite
