#include "probe.hpp"

#include <vector>

#include "matching.hpp"
#include "p2p.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

Request envelope(int source, int tag, int context, const Comm& comm) {
  Request q;
  q.source = source;
  q.tag = tag;
  q.context = context;
  q.comm = &comm;
  return q;
}

bool overlaps(const Request& a, const Request& b) {
  return a.context == b.context &&
         (a.source == MPI_ANY_SOURCE || b.source == MPI_ANY_SOURCE || a.source == b.source) &&
         (a.tag == MPI_ANY_TAG || b.tag == MPI_ANY_TAG || a.tag == b.tag);
}

/// The message `probe` sees at time `horizon` behind the rank's pending receives, which take
/// their messages first, in post order, by the rules of matching: a named source its first
/// matching message, a wildcard its candidate if that has arrived by the horizon. A receive
/// that takes nothing (or is blocked by one that does not) hides the messages it could match.
/// Once r.eit > horizon this depends only on messages with recv timestamps up to the horizon
/// and on what named receives take: not on how far the engine has decided its receives.
Message* visible_message(const Rank& r, const Request& probe, SimTime horizon) {
  std::vector<const Message*> taken;
  std::vector<const Request*> open;
  for (const Request* q : r.posted) {
    Message* m = candidate(r, *q, {&taken, nullptr});
    if (m && !could_take(open, *m) && (q->source != MPI_ANY_SOURCE || m->ts <= horizon))
      taken.push_back(m);
    else
      open.push_back(q);
  }
  return candidate(r, probe, {&taken, &open});
}

} // namespace

Request* start_probe(World& w, Rank& r, Request::Probe how, int source, int tag, int context,
                     const Comm& comm) {
  Request* q = w.new_request(r, RequestKind::Recv);
  q->probe = how;
  q->comm = &comm;
  q->context = context;
  q->source = source;
  q->tag = tag;
  q->post_time = r.clock;
  post_receive(w, r, q);
  return q;
}

Message* probe_now(World& w, Rank& r, int source, int tag, int context, const Comm& comm) {
  const Request probe = envelope(source, tag, context, comm);
  for (;;) {
    const SimTime c = r.clock;
    Message* m = visible_message(r, probe, c);
    // An arrival the network decides later (m->ts is then only a lower bound) may be at or before
    // the clock or after it: the answer waits for the decision, as matching does. The host
    // settles the network before it raises bounds, so the rank wakes to a decided message.
    if (m && m->pending && m->ts <= c) {
      await_decision(w, r, c);
      continue;
    }
    // Without a pending receive that could want the same messages, the first matching message
    // of a named source is final, and a wildcard's candidate is once nothing can beat it.
    bool alone = true;
    for (const Request* q : r.posted)
      alone = alone && !overlaps(*q, probe);
    const bool final_candidate = alone && m && (source != MPI_ANY_SOURCE || m->ts < r.eit);
    if (r.eit > c || final_candidate) {
      if (m && m->ts <= c) return m;
      spend_poll(w, r, m != nullptr);
      return nullptr;
    }
    await_decision(w, r, alone && m && m->ts <= c ? m->ts : c);
  }
}

Request* take_probed(World& w, Rank& r, Message& m, const Comm& comm) {
  Request* q = w.new_request(r, RequestKind::Recv);
  q->probe = Request::Probe::Take;
  q->comm = &comm;
  q->context = m.context;
  describe_message(q->status, comm, m);
  r.unexpected.erase(&m);
  q->message.reset(&m);
  mark_complete(*q, r.clock);
  // A pending receive may have had `m` as its candidate: its undecided key changes.
  progress_matching(w, r);
  return q;
}

Request* receive_probed(World& w, Rank& r, Request& probe, void* buf, std::size_t count,
                        const Datatype& type) {
  Message* m = probe.message.release();
  Request* q = w.new_request(r, RequestKind::Recv);
  q->buf = buf;
  q->count = count;
  q->type = &type;
  q->comm = probe.comm;
  q->context = m->context;
  q->source = m->src;
  q->tag = m->tag;
  q->post_time = r.clock;
  w.free_request(&probe);
  receive_message(w, r, *q, *m);
  return q;
}

} // namespace mpilite
