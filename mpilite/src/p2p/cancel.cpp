#include "cancel.hpp"

#include <algorithm>

#include "matching.hpp"
#include "p2p.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

void complete_cancelled(Rank& r, Request& q) {
  q.status.MPI_SOURCE = MPI_ANY_SOURCE;
  q.status.MPI_TAG = MPI_ANY_TAG;
  q.status.MPI_ERROR = MPI_SUCCESS;
  set_status_bytes(q.status, 0);
  q.status.count_hi_and_cancelled |= 1;
  mark_complete(q, r.clock);
}

void cancel_receive(World& w, Rank& r, Request& q) {
  // A message that arrives by the clock may still be on its way: wait until it cannot be.
  while (!q.complete && !candidate(r, q) && r.eit <= r.clock)
    await_decision(w, r, r.clock);
  if (q.complete || candidate(r, q)) return; // matched, or its message is there: it will be
  withdraw_receive(w, r, q);
  complete_cancelled(r, q);
}

bool cancel_send(World& w, Rank& r, Request& q) {
  // Eager and buffered sends completed at once: their messages are on their way.
  if (q.complete) return true;
  Rank* dest = w.local(q.dest);
  if (!dest) return false;
  Message* m = dest->unexpected.front();
  while (m && !(m->src == r.id && m->reply_to == q.id))
    m = m->next;
  if (!m) return true;
  dest->unexpected.erase(m);
  w.free_message(m);
  // An undecided receive there may have had it as its candidate.
  progress_matching(w, *dest);
  complete_cancelled(r, q);
  return true;
}

} // namespace

bool cancel(World& w, Rank& r, Request& q) {
  if (q.kind != RequestKind::Recv) return cancel_send(w, r, q);
  cancel_receive(w, r, q);
  return true;
}

} // namespace mpilite
