#include "matching.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "buffer_reach.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "lp_control.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

bool earlier(const Message& a, const Message& b) {
  if (a.ts != b.ts) return a.ts < b.ts;
  if (a.src != b.src) return a.src < b.src;
  return a.seq < b.seq;
}

void progress_matching_for(World& w, Rank& r, int context, int source, int tag);

} // namespace

bool could_take(std::span<const Request* const> receives, const Message& m) {
  for (const Request* u : receives)
    if (envelope_matches(*u, m)) return true;
  return false;
}

void describe_message(MPI_Status& s, const Comm& comm, const Message& m) {
  s.MPI_SOURCE = comm.peer_rank(m.src);
  s.MPI_TAG = m.tag;
  s.MPI_ERROR = MPI_SUCCESS;
  s.count_hi_and_cancelled = 0;
  set_status_bytes(s, m.bytes);
}

Message* candidate(const Rank& r, const Request& q, const CandidateFilter& f) {
  const auto taken = [&](const Message* m) {
    return f.taken && std::find(f.taken->begin(), f.taken->end(), m) != f.taken->end();
  };
  const auto hidden = [&](const Message& m) { return f.hidden_by && could_take(*f.hidden_by, m); };
  // The first message of one (context, source) list that q takes (non-overtaking).
  const auto first_match = [&](Message* m) {
    for (; m; m = m->source_next)
      if (!taken(m) && (q.tag == MPI_ANY_TAG || q.tag == m->tag)) return m;
    return static_cast<Message*>(nullptr);
  };
  if (q.source != MPI_ANY_SOURCE) {
    Message* m = first_match(r.unexpected.first_from(q.context, q.source));
    return m && !hidden(*m) ? m : nullptr;
  }
  Message* best = nullptr;
  for (const auto& source : r.unexpected.sources()) {
    if (context_of_key(source.key) != q.context) continue;
    Message* m = first_match(source.head);
    if (!m || hidden(*m)) continue;
    if (!best || earlier(*m, *best)) best = m;
  }
  return best;
}

namespace {

/// Moves the data of `m` into the receive buffer of `q` (at most its capacity).
void copy_payload(World& w, const Message& m, const Request& q, std::size_t bytes) {
  if (bytes == 0 || m.no_data) return;
  // The buffers are often on the stacks of blocked ranks: with stacks copied out, the data goes
  // to (and comes from) their copies, and a collective that delivers to every rank before any
  // runs keeps them parked, where bringing each back would hold a page per rank.
  // In-host rendezvous: the sender waits, so its buffer is still valid. What is written is
  // reached last: reaching may bring a stack back, which leaves a copy already reached as it
  // was, fine to read from but no longer to write to.
  Scheduler& sched = w.scheduler();
  const void* from =
      m.packed ? nullptr
               : reach(sched, w.local(m.src)->task, m.user_buf, m.user_count, *m.user_type);
  void* to = reach(sched, q.owner->task, q.buf, q.count, *q.type);
  if (m.packed) {
    unpack(m.packed, bytes, *q.type, to);
    return;
  }
  if (m.user_type->contiguous() && q.type->contiguous()) {
    std::memcpy(to, from, bytes);
    return;
  }
  std::vector<std::byte> tmp(m.bytes);
  pack(from, m.user_count, *m.user_type, tmp.data());
  unpack(tmp.data(), bytes, *q.type, to);
}

/// Completes `q` at `ready` and wakes its owner, unless `q` is a step that its owner does not
/// wait for (Request::wakes_owner). Completing may free `q` (MPI_Request_free).
void complete_and_wake(World& w, Request& q, SimTime ready) {
  const bool wake = q.wakes_owner;
  Task& owner = q.owner->task;
  mark_complete(q, ready);
  if (wake)
    w.scheduler().wake(owner);
  else if (!w.in_rank())
    ++w.quiet_steps;
}

/// A probe found `m`: it completes when `m` is there, and Take sets `m` aside for MPI_Mrecv.
void probe_found(World& w, Rank& r, Request& q, Message& m) {
  describe_message(q.status, *q.comm, m);
  q.undecided = false;
  if (q.probe == Request::Probe::Take) {
    r.unexpected.erase(&m);
    q.message.reset(&m);
  }
  q.path = arrival_path(m.path.get(), m.ts);
  mark_complete(q, std::max(q.post_time, m.ts));
  w.scheduler().wake(r.task);
}

} // namespace

void receive_message(World& w, Rank& r, Request& q, Message& m) {
  Kernel& k = w.kernel();
  const SimTime t_match = std::max(q.post_time, m.ts);
  k.hooks.received(m, r.id, t_match);
  const std::size_t capacity = q.count * q.type->size;
  const std::size_t bytes = std::min(m.bytes, capacity);
  copy_payload(w, m, q, bytes);
  q.status.MPI_SOURCE = q.comm->peer_rank(m.src);
  q.status.MPI_TAG = m.tag;
  q.status.MPI_ERROR = m.bytes > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  q.sent_partitions = m.partitions;
  if (m.partitions != q.partitions) q.status.MPI_ERROR = MPI_ERR_OTHER;
  set_status_bytes(q.status, bytes);
  q.message_bytes = m.bytes;
  q.recv_overhead = k.timing.receive_overhead(m.src, r.id, m.bytes);
  ++r.stats.msgs_received;
  r.stats.bytes_received += m.bytes;
  q.undecided = false;
  // The critical path at the match: the message's arrival, or the receive's post if later.
  const auto path_at_match = [&] {
    return q.post_time > m.ts ? std::move(q.path) : arrival_path(m.path.get(), m.ts);
  };
  const SendProtocol protocol = m.protocol;
  if (protocol == SendProtocol::Eager || protocol == SendProtocol::EagerSync) {
    q.ready_time = m.ts;
    // Only a synchronous send's acknowledgement leaves from the match; the receive's own path
    // is the message's, which is freed here: it moves instead of being copied.
    std::unique_ptr<CritPath> at_match =
        protocol == SendProtocol::EagerSync ? path_at_match() : nullptr;
    q.path = arrival_path(std::move(m.path), m.ts);
    if (protocol == SendProtocol::EagerSync) {
      const LegPlan ack = k.timing.plan({LegKind::Ack, r.id, m.src, 0, t_match});
      complete_reply(w,
                     {m.src, m.reply_to, ack.arrives,
                      at_match ? leg_path(*at_match, ack, t_match, r.id, r.call.name) : nullptr});
    }
    w.free_message(&m);
    complete_and_wake(w, q, q.ready_time);
    return;
  }
  // Rendezvous (and buffered, whose reply frees the attached-buffer space, bsend.hpp): a
  // clear-to-send goes back, then the data comes.
  const std::unique_ptr<CritPath> at_match = path_at_match();
  const LegPlan cts = k.timing.plan({LegKind::ClearToSend, r.id, m.src, 0, t_match});
  DataTransfer data{m.src, r.id, q.id, m.reply_to, m.seq, m.bytes, cts.arrives, nullptr};
  if (at_match) {
    data.path = std::make_shared<DataPath>();
    leg_path(*at_match, cts, t_match, r.id, r.call.name)->encode(data.path->start);
  }
  w.free_message(&m);
  if (!w.local(data.src) && k.timing.data_at_sender()) {
    // The sender's host plans the data; this rank waits for it to come from there.
    w.await_reply_from_elsewhere(r);
    k.delivery.transfer_remote({data, true, false, data.start});
    return;
  }
  plan_data(w, data);
}

void plan_data(World& w, const DataTransfer& d) {
  if (Rank* sender = w.local(d.src)) --sender->later_legs; // counted by send_at
  const LegPlan plan =
      w.kernel().timing.plan({LegKind::Data, d.src, d.dst, d.bytes, d.start, d.seq, nullptr, &d});
  if (d.path) { // how the leg divides, for its arrival and its sender's end
    d.path->latency = plan.latency;
    d.path->transfer = plan.transfer;
  }
  if (!plan.later) {
    finish_data(w, d, plan.arrives, plan.sent);
  } else if (Rank* sender = w.local(d.src); sender && d.reply_to) {
    await_network(w, *sender, plan.sent); // the network calls finish_data
  }
}

void send_to_host(World& w, Message* m) {
  ++w.remote_messages;
  w.kernel().delivery.send_remote(m);
}

void deliver(World& w, Message* m) {
  Rank* r = w.local(m->dst);
  if (!r) {
    // A message the network decides later leaves once its NIC has sent it (Arrivals::forward).
    if (!m->pending) send_to_host(w, m);
    return;
  }
  if (w.local(m->src)) ++w.local_messages;
  r->unexpected.push_back(m);
  if (r->posted.empty()) return;
  r->posted.wake_receivers(*m);
  progress_matching_for(w, *r, m->context, m->src, m->tag);
}

void post_receive(World& w, Rank& r, Request* req) {
  w.kernel().policy.posted(*req, r.id);
  r.posted.push_back(req);
  w.note_may_wait_elsewhere(r);
  progress_matching(w, r);
}

namespace {

/// Whether a receive of `r` posted before `q` could take `m`. progress_matching visits the
/// matchable receives in post order, and every posted receive that could take a message is
/// matchable: so such a receive is one it left undecided, which may be entitled to `m`. Only the
/// receives of m's source and the wildcards are looked at, so that a rank waiting for thousands
/// of sources at once (MPI_Gatherv) is not matched in time quadratic in them at every message.
bool posted_earlier_could_take(const Rank& r, const Request& q, const Message& m) {
  for (int source : {m.src, MPI_ANY_SOURCE})
    for (const Request* p = r.posted.first_from(m.context, source); p && p->post_seq < q.post_seq;
         p = p->source_next)
      if (envelope_matches(*p, m)) return true;
  return false;
}

/// Takes the key of `q` out of its owner's undecided keys (rekey() finds their least again when
/// every receive at it has gone).
void unkey(Rank& r, Request& q) {
  if (q.undecided_key == kTimeInfinity) return;
  if (q.undecided_key == r.undecided_key) --r.undecided_at_key;
  q.undecided_key = kTimeInfinity;
}

void add_key(Rank& r, Request& q, SimTime k) {
  q.undecided_key = k;
  if (k < r.undecided_key) {
    r.undecided_key = k;
    r.undecided_at_key = 1;
  } else if (k == r.undecided_key) {
    ++r.undecided_at_key;
  }
}

/// The least key of the undecided receives once no receive holds the last one.
void rekey(Rank& r) {
  r.undecided_key = kTimeInfinity;
  r.undecided_at_key = 0;
  for (std::size_t i = 0; i < r.posted.matchable_count(); ++i) {
    Request& q = *r.posted.matchable(i);
    if (q.undecided_key < kTimeInfinity) add_key(r, q, q.undecided_key);
  }
}

enum class Matched { Dropped, Taken, Undecided };

/// What a pass over the receives knows of the last wildcard receive it left undecided: a later
/// wildcard of the same communicator and tag has the same candidate (no receive posted after the
/// first can have taken it, since the first could take it too), and the first blocks it. A
/// master's hundreds of wildcard receives then cost one search of the sources per pass.
struct Pass {
  const Request* wildcard = nullptr;
  const Message* candidate = nullptr;
};

/// Matches the matchable receive `q` (unkeyed) if it can be decided now: it takes its candidate,
/// is dropped from the matchable ones if it has none, or is left undecided with its key.
Matched match_one(World& w, Rank& r, Request& q, Pass& pass) {
  if (q.source == MPI_ANY_SOURCE && pass.wildcard && pass.wildcard->context == q.context &&
      pass.wildcard->tag == q.tag) {
    q.undecided = true;
    add_key(r, q, std::max(q.post_time, pass.candidate->ts));
    return Matched::Undecided;
  }
  Message* m = candidate(r, q);
  if (!m) return Matched::Dropped;
  // A receive posted earlier that is still undecided may be entitled to this message.
  const bool blocked = posted_earlier_could_take(r, q, *m);
  // A pending message's arrival is not decided yet (m->ts is a lower bound): the kernel
  // settles it and matches again.
  const bool decidable = !blocked && !m->pending &&
                         (m->ts < r.eit || w.kernel().policy.takes_without_bound(q, r.id, *m));
  if (!decidable) {
    q.undecided = true;
    add_key(r, q, std::max(q.post_time, m->ts));
    if (q.source == MPI_ANY_SOURCE) pass = {&q, m};
    return Matched::Undecided;
  }
  r.posted.erase(&q);
  if (q.probe != Request::Probe::None) {
    probe_found(w, r, q, *m);
  } else {
    r.unexpected.erase(m);
    receive_message(w, r, q, *m);
  }
  return Matched::Taken;
}

/// Matches what a message of `source` with `tag` on `context` may have changed: it arrived, or
/// its arrival was decided. Only the receives of that source and the wildcards can take it, and
/// what a receive of that source takes changes only the receives of that source and the
/// wildcards that could take such a message (or that such a receive blocked): the others stay as
/// they were, so that a rank waiting for thousands of sources (MPI_Gatherv's root) is not
/// matched in time linear in them at every message. They are visited in post order, as a pass
/// over all would; once a wildcard takes a message, which may be any source's, all are matched.
void progress_matching_for(World& w, Rank& r, int context, int source, int tag) {
  World::MatchingScope scope(w);
  Pass pass;
  // The tags of the messages that receives of `source` took in this pass (any: one that takes
  // every tag took one, or left the receives it blocked).
  boost::container::small_vector<int, 4> taken;
  bool any_taken = false;
  const auto may_change = [&](const Request& wildcard) {
    return wildcard.tag == MPI_ANY_TAG || wildcard.tag == tag || any_taken ||
           std::find(taken.begin(), taken.end(), wildcard.tag) != taken.end();
  };
  Request* named = r.posted.first_from(context, source);
  Request* wild = r.posted.first_from(context, MPI_ANY_SOURCE);
  while (named || wild) {
    const bool is_wild = !named || (wild && wild->post_seq < named->post_seq);
    Request& q = is_wild ? *wild : *named;
    (is_wild ? wild : named) = q.source_next;
    if (!q.matchable || (is_wild && !may_change(q))) continue;
    unkey(r, q);
    const int q_tag = q.tag; // taking may free q
    switch (match_one(w, r, q, pass)) {
    case Matched::Dropped:
      r.posted.drop_from_matchable(&q);
      break;
    case Matched::Taken:
      if (is_wild) {
        progress_matching(w, r);
        return;
      }
      if (q_tag == MPI_ANY_TAG)
        any_taken = true;
      else
        taken.push_back(q_tag);
      break;
    case Matched::Undecided:
      break;
    }
  }
  if (r.undecided_at_key == 0) rekey(r);
  w.note_undecided(r);
}

} // namespace

void withdraw_receive(World& w, Rank& r, Request& q) {
  unkey(r, q);
  r.posted.erase(&q);
  if (r.undecided_at_key == 0) rekey(r);
  w.note_undecided(r);
}

void progress_matching(World& w, Rank& r) {
  World::MatchingScope scope(w);
  r.undecided_key = kTimeInfinity;
  r.undecided_at_key = 0;
  // In post order over the receives that may have a message: the others have no candidate,
  // so skipping them changes nothing.
  Pass pass;
  for (std::size_t i = 0; i < r.posted.matchable_count();) {
    Request& q = *r.posted.matchable(i);
    q.undecided_key = kTimeInfinity;
    switch (match_one(w, r, q, pass)) {
    case Matched::Dropped:
      r.posted.drop_matchable(i);
      break;
    case Matched::Taken:
      break;
    case Matched::Undecided:
      ++i;
      break;
    }
  }
  w.note_undecided(r);
}

void complete_reply(World& w, const Reply& reply) {
  World::MatchingScope scope(w);
  if (!w.local(reply.to)) {
    w.kernel().delivery.reply_remote(reply);
    return;
  }
  Request* s = w.request_by_id(reply.request);
  if (!s) return; // the send was freed (MPI_Request_free) before its reply came
  s->path = arrival_path(reply.path ? reply.path.get() : s->path.get(), reply.ts);
  complete_and_wake(w, *s, reply.ts);
}

void finish_data(World& w, const DataTransfer& d, SimTime arrival, SimTime sent) {
  // The data's path at its start, then its transfer (the sender is done when its last byte has
  // left) and its latency (the receiver has it then).
  std::unique_ptr<CritPath> path;
  if (d.path) path = std::make_unique<CritPath>(CritPath::decode(d.path->start, "rendezvous data"));
  if (path) path->extend(PathPart::Transfer, d.path->transfer);
  if (d.reply_to) complete_reply(w, {d.src, d.reply_to, sent, arrival_path(path.get(), sent)});
  if (path) path->extend(PathPart::Latency, d.path->latency);
  if (!w.local(d.dst)) { // planned at the sender's host: the receiver's completes it
    DataTransfer done = d;
    done.reply_to = 0;
    w.kernel().delivery.transfer_remote({done, false, false, arrival});
    return;
  }
  Request* q = w.request_by_id(d.recv_request);
  if (!q) return; // freed with MPI_Request_free before its data came
  q->path = arrival_path(std::move(path), arrival);
  complete_and_wake(w, *q, arrival);
}

void settle_message(World& w, Message& m, SimTime ts) {
  m.ts = ts;
  m.pending = false;
  if (Rank* r = w.local(m.dst); r && !r->posted.empty())
    progress_matching_for(w, *r, m.context, m.src, m.tag);
}

} // namespace mpilite
