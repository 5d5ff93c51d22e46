#include "bsend.hpp"

#include <algorithm>
#include <vector>

#include "p2p.hpp"
#include "world.hpp"

namespace mpilite {

std::size_t bsend_in_use(World& w, Rank& r) {
  std::size_t used = 0;
  std::erase_if(r.rare().bsend_pending, [&](Request* q) {
    if (by_clock(r, *q) == ByClock::Yes) {
      w.free_request(q);
      return true;
    }
    used += q->message_bytes;
    return false;
  });
  return used;
}

Request* reserve_bsend(World& w, Rank& r, std::size_t space) {
  Request* q = w.new_request(r, RequestKind::Send);
  q->message_bytes = space;
  r.rare().bsend_pending.push_back(q);
  return q;
}

void drain_bsend(World& w, Rank& r) {
  std::vector<Request*>& pending = r.rare().bsend_pending;
  wait_all(w, r, pending.data(), pending.size());
  for (Request* q : pending)
    w.free_request(q);
  pending.clear();
}

} // namespace mpilite
