#include "completion.hpp"

#include <algorithm>

#include "p2p.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

/// The completed request that completed first (ties: lowest index), or -1; and whether every
/// non-null request is complete.
struct Scan {
  long first = -1;
  bool all_complete = true;
};
Scan scan(Request* const* reqs, std::size_t n) {
  Scan s;
  for (std::size_t i = 0; i < n; ++i) {
    if (!reqs[i]) continue;
    if (!reqs[i]->complete) {
      s.all_complete = false;
      continue;
    }
    if (s.first < 0 || reqs[i]->ready_time < reqs[static_cast<std::size_t>(s.first)]->ready_time)
      s.first = static_cast<long>(i);
  }
  return s;
}

/// The requests completed by `t`, charged in completion order.
std::vector<std::size_t> collect(Rank& r, Request* const* reqs, std::size_t n, SimTime t) {
  std::vector<std::size_t> done;
  std::vector<Request*> charged(n, nullptr);
  for (std::size_t i = 0; i < n; ++i)
    if (reqs[i] && reqs[i]->complete && reqs[i]->ready_time <= t) {
      done.push_back(i);
      charged[i] = reqs[i];
    }
  charge_in_time_order(r, charged.data(), n);
  return done;
}

} // namespace

long test_any(World& w, Rank& r, Request* const* reqs, std::size_t n) {
  for (;;) {
    const Scan s = scan(reqs, n);
    const SimTime c = r.clock;
    // Pending requests complete at or after the rank's bound.
    if (s.first >= 0 && reqs[s.first]->ready_time <= c) {
      const Request& q = *reqs[s.first];
      if (s.all_complete || q.ready_time < r.eit) {
        charge(r, q);
        return s.first;
      }
      await_decision(w, r, q.ready_time);
      continue;
    }
    if (s.all_complete || r.eit > c) {
      spend_poll(w, r, s.first >= 0);
      return -1;
    }
    await_decision(w, r, c);
  }
}

std::vector<std::size_t> wait_some(World& w, Rank& r, Request* const* reqs, std::size_t n) {
  for (;;) {
    const Scan s = scan(reqs, n);
    if (s.first < 0) {
      w.scheduler().block(); // nothing completed yet: only a message can change that
      continue;
    }
    const SimTime t = std::max(r.clock, reqs[s.first]->ready_time);
    if (s.all_complete || r.eit > t) return collect(r, reqs, n, t);
    await_decision(w, r, t);
  }
}

std::vector<std::size_t> test_some(World& w, Rank& r, Request* const* reqs, std::size_t n) {
  for (;;) {
    const SimTime c = r.clock;
    if (const Scan s = scan(reqs, n); s.all_complete || r.eit > c) {
      std::vector<std::size_t> done = collect(r, reqs, n, c);
      if (done.empty()) spend_poll(w, r, s.first >= 0);
      return done;
    }
    await_decision(w, r, c);
  }
}

bool completed_by_clock(World& w, Rank& r, const Request& q) {
  for (;;) {
    switch (by_clock(r, q)) {
    case ByClock::Yes:
      return true;
    case ByClock::No:
      spend_poll(w, r, q.complete);
      return false;
    case ByClock::Unknown:
      await_decision(w, r, r.clock);
    }
  }
}

} // namespace mpilite
