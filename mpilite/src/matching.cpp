#include "matching.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "comm.hpp"
#include "datatype.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

bool envelope_matches(const Request& q, const Message& m) {
  return q.context == m.context && (q.source == MPI_ANY_SOURCE || q.source == m.src) &&
         (q.tag == MPI_ANY_TAG || q.tag == m.tag);
}

bool earlier(const Message& a, const Message& b) {
  if (a.ts != b.ts) return a.ts < b.ts;
  if (a.src != b.src) return a.src < b.src;
  return a.seq < b.seq;
}

/// The message `q` would take now: for a named source the first matching one it sent
/// (non-overtaking); for MPI_ANY_SOURCE the earliest among each source's first matching one.
Message* candidate(const Rank& r, const Request& q) {
  if (q.source != MPI_ANY_SOURCE) {
    for (Message* m = r.unexpected.front(); m; m = m->next)
      if (envelope_matches(q, *m)) return m;
    return nullptr;
  }
  Message* best = nullptr;
  std::vector<int> seen; // sources whose first matching message was already considered
  for (Message* m = r.unexpected.front(); m; m = m->next) {
    if (!envelope_matches(q, *m)) continue;
    if (std::find(seen.begin(), seen.end(), m->src) != seen.end()) continue;
    seen.push_back(m->src);
    if (!best || earlier(*m, *best)) best = m;
  }
  return best;
}

/// Moves the data of `m` into the receive buffer of `q` (at most its capacity).
void copy_payload(const Message& m, const Request& q, std::size_t bytes) {
  if (bytes == 0) return;
  if (m.packed) {
    unpack(m.packed, bytes, *q.type, q.buf);
    return;
  }
  // In-host rendezvous: the sender waits, so its buffer is still valid.
  if (m.user_type->contiguous() && q.type->contiguous()) {
    std::memcpy(q.buf, m.user_buf, bytes);
    return;
  }
  std::vector<std::byte> tmp(m.bytes);
  pack(m.user_buf, m.user_count, *m.user_type, tmp.data());
  unpack(tmp.data(), bytes, *q.type, q.buf);
}

void match(World& w, Rank& r, Request& q, Message& m) {
  Kernel& k = w.kernel();
  r.unexpected.erase(&m);
  const SimTime t_match = std::max(q.post_time, m.ts);
  const std::size_t capacity = q.count * q.type->size;
  const std::size_t bytes = std::min(m.bytes, capacity);
  copy_payload(m, q, bytes);
  q.status.MPI_SOURCE = q.comm->rank_of(m.src);
  q.status.MPI_TAG = m.tag;
  q.status.MPI_ERROR = m.bytes > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  set_status_bytes(q.status, bytes);
  q.message_bytes = m.bytes;
  q.recv_overhead = k.recv_overhead(m.src, r.id, m.bytes);
  // Rendezvous: a clear-to-send goes back, then the data comes.
  const SimTime clear_to_send = t_match + k.transfer(r.id, m.src, 0);
  const SimTime data_arrival = clear_to_send + k.transfer(m.src, r.id, m.bytes);
  switch (m.protocol) {
  case SendProtocol::Eager:
    q.ready_time = m.ts;
    break;
  case SendProtocol::EagerSync:
    q.ready_time = m.ts;
    complete_reply(w, {m.src, m.reply_to, clear_to_send});
    break;
  case SendProtocol::Rendezvous:
    q.ready_time = data_arrival;
    complete_reply(w, {m.src, m.reply_to, data_arrival - k.transfer(m.src, r.id, 0)});
    break;
  case SendProtocol::Buffered:
    q.ready_time = data_arrival;
    if (Rank* sender = w.local(m.src))
      sender->bsend_used -= std::min(sender->bsend_used, m.bytes + MPI_BSEND_OVERHEAD);
    break;
  }
  ++r.stats.msgs_received;
  r.stats.bytes_received += m.bytes;
  q.undecided = false;
  w.free_message(&m);
  mark_complete(q, q.ready_time);
  w.scheduler().wake(r.task);
}

bool could_take(const std::vector<const Request*>& undecided, const Message& m) {
  for (const Request* u : undecided)
    if (envelope_matches(*u, m)) return true;
  return false;
}

} // namespace

void deliver(World& w, Message* m) {
  Rank* r = w.local(m->dst);
  if (!r) {
    ++w.remote_messages;
    w.kernel().send_remote(m);
    return;
  }
  ++w.local_messages;
  r->unexpected.push_back(m);
  if (!r->posted.empty()) progress_matching(w, *r);
}

void post_receive(World& w, Rank& r, Request* req) {
  r.posted.push_back(req);
  progress_matching(w, r);
}

void progress_matching(World& w, Rank& r) {
  World::MatchingScope scope(w);
  const bool det = w.kernel().deterministic();
  std::vector<const Request*> undecided;
  SimTime key = kTimeInfinity;
  for (std::size_t i = 0; i < r.posted.size();) {
    Request& q = *r.posted[i];
    Message* m = candidate(r, q);
    if (!m) {
      ++i;
      continue;
    }
    // A receive posted earlier that is still undecided may be entitled to this message.
    const bool blocked = could_take(undecided, *m);
    const bool decidable = !blocked && ((det && q.source != MPI_ANY_SOURCE) || m->ts < r.eit);
    if (decidable) {
      r.posted.erase(r.posted.begin() + static_cast<std::ptrdiff_t>(i));
      match(w, r, q, *m);
      continue;
    }
    q.undecided = true;
    undecided.push_back(&q);
    key = std::min(key, std::max(q.post_time, m->ts));
    ++i;
  }
  r.undecided_key = key;
  if (key < kTimeInfinity) w.note_undecided(r);
}

void complete_reply(World& w, const Reply& reply) {
  World::MatchingScope scope(w);
  if (!w.local(reply.to)) {
    w.kernel().reply_remote(reply);
    return;
  }
  Request* s = w.request_by_id(reply.request);
  if (!s) return; // the send was freed (MPI_Request_free) before its reply came
  mark_complete(*s, reply.ts);
  w.scheduler().wake(s->owner->task);
}

} // namespace mpilite
