#include "p2p.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "bsend.hpp"
#include "buffer_reach.hpp"
#include "lp_control.hpp"
#include "matching.hpp"
#include "time_limit.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

SendProtocol protocol_for(SendMode mode, std::size_t bytes, std::size_t eager_limit) {
  if (mode == SendMode::Buffered)
    return bytes <= eager_limit ? SendProtocol::Eager : SendProtocol::Buffered;
  if (bytes > eager_limit) return SendProtocol::Rendezvous;
  return mode == SendMode::Synchronous ? SendProtocol::EagerSync : SendProtocol::Eager;
}

} // namespace

void charge(Rank& r, const Request& q) {
  r.wait_until(q.ready_time, q.path.get(), q.kind == RequestKind::Collective ? q.busy : 0);
  if (q.kind == RequestKind::Recv) r.spend_comm(q.recv_overhead, PathPart::RecvOverhead);
}

void charge_in_time_order(Rank& r, Request* const* reqs, std::size_t n) {
  if (n == 1) {
    if (reqs[0]) charge(r, *reqs[0]);
    return;
  }
  // Insertion sort of indices: n is small for almost every call, and this allocates nothing
  // for up to kInline requests.
  constexpr std::size_t kInline = 16;
  std::size_t inline_order[kInline];
  std::vector<std::size_t> heap_order(n > kInline ? n : 0);
  std::size_t* order = n > kInline ? heap_order.data() : inline_order;
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!reqs[i]) continue;
    std::size_t j = m++;
    for (; j > 0 && reqs[order[j - 1]]->ready_time > reqs[i]->ready_time; --j)
      order[j] = order[j - 1];
    order[j] = i;
  }
  for (std::size_t k = 0; k < m; ++k)
    charge(r, *reqs[order[k]]);
}

ByClock by_clock(const Rank& r, const Request& q) {
  if (q.complete) return q.ready_time <= r.clock ? ByClock::Yes : ByClock::No;
  return r.eit > r.clock ? ByClock::No : ByClock::Unknown;
}

void await_decision(World& w, Rank& r, SimTime t) {
  r.decide_time = t;
  w.note_undecided(r);
  w.note_may_wait_elsewhere(r);
  w.scheduler().block();
  r.decide_time = kTimeInfinity;
  w.note_undecided(r); // its receives' time, if earlier ones were passed over for this one
}

void deliver_released_receives(World& w, Rank& r) {
  const auto waits = [&] {
    for (const Request* q : r.posted) {
      if (q->active || q->probe != Request::Probe::None) continue;
      const Message* m = candidate(r, *q);
      // Undecided only while its arrival is (m->pending) or the bound is below the clock:
      // one decision up to the clock settles both.
      if (m && m->ts <= r.clock && (m->pending || r.eit <= r.clock)) return true;
    }
    return false;
  };
  while (waits())
    await_decision(w, r, r.clock);
}

Request* start_send(World& w, Rank& r, SendMode mode, const void* buf, std::size_t count,
                    const Datatype& type, int dest, int tag, int context, int partitions) {
  Request* q =
      send_at(w, r, r.clock, mode, buf, count, type, dest, tag, context, partitions, r.path.get());
  r.spend_comm(q->send_overhead, PathPart::SendOverhead);
  return q;
}

Request* send_at(World& w, Rank& r, SimTime at, SendMode mode, const void* buf, std::size_t count,
                 const Datatype& type, int dest, int tag, int context, int partitions,
                 const CritPath* from) {
  Kernel& k = w.kernel();
  const std::size_t bytes = count * type.size;
  const SendProtocol protocol = protocol_for(mode, bytes, k.timing.eager_limit());
  const bool eager_data = protocol == SendProtocol::Eager || protocol == SendProtocol::EagerSync;
  Message* m = w.new_message();
  m->src = r.id;
  m->dst = dest;
  m->context = context;
  m->tag = tag;
  m->seq = r.next_seq++;
  m->bytes = bytes;
  m->protocol = protocol;
  m->partitions = partitions;
  const bool waits = protocol == SendProtocol::EagerSync || protocol == SendProtocol::Rendezvous;
  Request* q = w.new_request(r, RequestKind::Send);
  q->dest = dest;
  // A standard or ready eager send is done when its bytes have left; a synchronous one waits
  // for its receiver, and a buffered one only for the copy into the attached buffer, whose
  // bytes MPI_Buffer_detach waits to have left.
  Request* const leaving =
      eager_data && mode == SendMode::Buffered ? reserve_bsend(w, r, 0) : nullptr;
  const std::uint64_t done_when_sent = !eager_data || waits ? 0 : leaving ? leaving->id : q->id;
  const bool local_dest = w.local(dest) != nullptr;
  const bool in_order = eager_data && r.later_legs == 0 && r.region_threads == 0 && local_dest;
  if (!eager_data) ++r.later_legs; // until plan_data
  const LegPlan plan = k.timing.plan({eager_data ? LegKind::Eager : LegKind::RequestToSend, r.id,
                                      dest, eager_data ? bytes : 0, at, m->seq, m, nullptr,
                                      done_when_sent, in_order, !local_dest});
  if (plan.arrives > kTimeLimit) { // the run ends here
    // A network that decides the arrival later holds the message until the run ends.
    if (!plan.later) w.free_message(m);
    fail_time_limit(r, fmt::format("{}: a message of {} bytes to rank {}",
                                   r.call.name ? r.call.name : "a send", bytes, dest));
  }
  m->ts = plan.arrives;
  m->pending = plan.later;
  q->send_overhead = plan.leaves - at;
  if (from) m->path = leg_path(*from, plan, at, r.id, r.call.name);
  if (type.size_only) {
    // Its buffer is no buffer (size_only_bytes): a frame to another host process has nothing to
    // carry it from.
    if (!local_dest)
      throw std::logic_error("a message of size_only_bytes to a rank of another host process");
    m->no_data = true;
  } else if (eager_data || m->protocol == SendProtocol::Buffered || !local_dest) {
    // A collective's schedule sends from its owner's buffers while the owner may be parked.
    pack(reach(w.scheduler(), r.task, buf, count, type), count, type, allocate_payload(*m, bytes));
  } else {
    m->user_buf = buf;
    m->user_count = count;
    m->user_type = &type;
    retain(type);
  }
  if (m->protocol == SendProtocol::Buffered)
    m->reply_to = reserve_bsend(w, r, bytes + MPI_BSEND_OVERHEAD)->id;
  if (leaving) {
    leaving->ready_time = plan.sent; // a lower bound until the network calls Arrivals::sent
    leaving->complete = !plan.sent_later;
    if (plan.sent_later) await_network(w, r, plan.sent);
  }
  if (waits) {
    m->reply_to = q->id;
  } else if (plan.sent_later && done_when_sent == q->id) {
    q->ready_time = plan.sent; // a lower bound until the network calls Arrivals::sent
    await_network(w, r, plan.sent);
  } else {
    q->complete = true;
    q->ready_time = leaving ? plan.leaves : plan.sent;
  }
  // The send's own part, for a completion later than its overhead (a reply may say more); a
  // send that is done with its overhead needs none.
  if (from && (!q->complete || q->ready_time > plan.leaves)) {
    // An eager sender's own part on the path is its overhead: its bytes leaving its NIC later
    // are contention, whether the network decides that now (Leg::in_order) or later.
    LegPlan own = plan;
    if (eager_data) own.sent = plan.leaves;
    q->path = sender_path(*from, own, at, r.id, r.call.name);
    if (q->complete) q->path = arrival_path(q->path.get(), q->ready_time);
  }
  if (m->reply_to && !local_dest) w.await_reply_from_elsewhere(r);
  ++r.stats.msgs_sent;
  r.stats.bytes_sent += bytes;
  k.policy.sent(*m);
  k.hooks.sent(*m, at);
  deliver(w, m);
  return q;
}

Request* start_receive(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type,
                       int source, int tag, int context, const Comm& comm, int partitions) {
  return receive_at(w, r, r.clock, buf, count, type, source, tag, context, comm, partitions,
                    r.path.get());
}

Request* receive_at(World& w, Rank& r, SimTime at, void* buf, std::size_t count,
                    const Datatype& type, int source, int tag, int context, const Comm& comm,
                    int partitions, const CritPath* from) {
  Request* q = w.new_request(r, RequestKind::Recv);
  q->partitions = partitions;
  q->buf = buf;
  q->count = count;
  q->type = &type;
  retain(type);
  q->comm = &comm;
  q->context = context;
  q->source = source;
  q->tag = tag;
  q->post_time = at;
  q->path = copy_path(from); // the path of the post, until a message sets a later one
  post_receive(w, r, q);
  return q;
}

Request* completed_request(World& w, Rank& r, RequestKind kind) {
  Request* q = w.new_request(r, kind);
  q->complete = true;
  q->ready_time = r.clock;
  q->status.MPI_SOURCE = MPI_PROC_NULL;
  q->status.MPI_TAG = MPI_ANY_TAG;
  q->status.MPI_ERROR = MPI_SUCCESS;
  return q;
}

void wait_all(World& w, Rank& r, Request* const* reqs, std::size_t n) {
  for (;;) {
    bool all = true;
    for (std::size_t i = 0; i < n && all; ++i)
      if (reqs[i] && !reqs[i]->complete) all = false;
    if (all) break;
    w.scheduler().block();
  }
  charge_in_time_order(r, reqs, n);
}

long wait_any(World& w, Rank& r, Request* const* reqs, std::size_t n) {
  for (;;) {
    long first = -1;
    bool any_active = false;
    bool all_complete = true;
    for (std::size_t i = 0; i < n; ++i) {
      if (!reqs[i]) continue;
      any_active = true;
      all_complete = all_complete && reqs[i]->complete;
      if (reqs[i]->complete && (first < 0 || reqs[i]->ready_time < reqs[first]->ready_time))
        first = static_cast<long>(i);
    }
    if (!any_active) return -1;
    // The earliest completed request is the answer only if nothing still pending can complete
    // before it; pending ones complete at or after the rank's bound.
    if (first >= 0 && (all_complete || reqs[first]->ready_time < r.eit)) {
      charge(r, *reqs[first]);
      return first;
    }
    if (first >= 0) {
      await_decision(w, r, reqs[first]->ready_time);
    } else {
      w.scheduler().block();
    }
  }
}

bool test_all(World& w, Rank& r, Request* const* reqs, std::size_t n) {
  for (;;) {
    bool unknown = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!reqs[i]) continue;
      const ByClock d = by_clock(r, *reqs[i]);
      if (d == ByClock::No) {
        spend_poll(w, r, reqs[i]->complete);
        return false;
      }
      if (d == ByClock::Unknown) unknown = true;
    }
    if (!unknown) break;
    await_decision(w, r, r.clock);
  }
  wait_all(w, r, reqs, n);
  return true;
}

namespace {

/// The lone rank `r` polled kAlonePollLimit times in a row: unless it computed more than it
/// polled meanwhile (a loop that works and checks for messages), the run ends, once it is known
/// to be alone in the whole run (other host processes' ranks too: until then, it asks).
[[gnu::noinline, gnu::cold]] void lone_polls(World& w, Rank& r, SimTime overhead) {
  World::SoleActor& alone = w.sole_actor;
  const SimTime polled = static_cast<SimTime>(alone.polls) * overhead;
  if (r.stats.compute - alone.compute_at > polled) {
    alone.polls = 0;
    return;
  }
  if (!alone.whole_run) {
    alone.asks_run = true;
    return;
  }
  w.stop(RunEnd::FatalError, 1,
         fmt::format("rank {}: {} found nothing {} times in a row, over {:.6f} s of simulated "
                     "time, while every other unfinished rank waited for a message only rank {} "
                     "could cause and no message was in flight: the program is deadlocked (a "
                     "blocking wait there would be reported as a deadlock), or polls with a "
                     "timeout longer than that. Make it wait with a blocking call, or end the "
                     "loop sooner (docs/model.md, Tests and polls)",
                     r.id, r.call.name ? r.call.name : "a poll", alone.polls,
                     time_to_seconds(polled), r.id));
}

} // namespace

void spend_poll(World& w, Rank& r, bool coming) {
  const SimTime overhead = w.kernel().timing.poll_overhead();
  r.spend_comm(overhead, PathPart::RecvOverhead);
  World::SoleActor& alone = w.sole_actor;
  if (alone.rank != r.id) return;
  if (coming) {
    alone.polls = 0;
  } else {
    if (alone.polls++ == 0) alone.compute_at = r.stats.compute;
    if (alone.polls >= kAlonePollLimit) lone_polls(w, r, overhead);
  }
}

void poll_progress(World& w, Rank& r) {
  if (r.eit <= r.clock) await_decision(w, r, r.clock);
  spend_poll(w, r);
}

SimTime exchange_extra(World& w, const Rank& r, int dest, std::size_t sent, std::size_t received) {
  return w.kernel().timing.exchange_extra(r.id, dest, sent, received);
}

int send_receive(World& w, Rank& r, const void* sbuf, std::size_t scount, const Datatype& stype,
                 int dest, int stag, void* rbuf, std::size_t rcount, const Datatype& rtype,
                 int source, int rtag, int context, const Comm& comm, MPI_Status* status) {
  Request* reqs[2] = {dest == MPI_PROC_NULL ? nullptr
                                            : start_send(w, r, SendMode::Standard, sbuf, scount,
                                                         stype, dest, stag, context),
                      source == MPI_PROC_NULL
                          ? nullptr
                          : start_receive(w, r, rbuf, rcount, rtype, source, rtag, context, comm)};
  wait_all(w, r, reqs, 2);
  const int error = reqs[1] ? reqs[1]->status.MPI_ERROR : MPI_SUCCESS;
  if (status && status != MPI_STATUS_IGNORE) {
    if (reqs[1]) {
      *status = reqs[1]->status;
    } else {
      status->MPI_SOURCE = MPI_PROC_NULL;
      status->MPI_TAG = MPI_ANY_TAG;
      status->MPI_ERROR = MPI_SUCCESS;
      set_status_bytes(*status, 0);
    }
  }
  for (Request* q : reqs)
    if (q) w.free_request(q);
  return error;
}

} // namespace mpilite
