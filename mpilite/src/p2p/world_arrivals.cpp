#include "world_arrivals.hpp"

#include <algorithm>
#include <vector>

#include "lp_control.hpp"
#include "matching.hpp"
#include "world.hpp"

namespace mpilite {

SimTime WorldArrivals::earliest_action() {
  return w_.earliest_undecided();
}

void WorldArrivals::arrived(Message& m, SimTime at) {
  settle_message(w_, m, at);
}

void WorldArrivals::coming(int rank) {
  // The heads of its matching queues: arrived() reads them first.
  if (const Rank* r = w_.local(rank)) {
    __builtin_prefetch(&r->posted);
    __builtin_prefetch(&r->unexpected);
  }
}

void WorldArrivals::data_arrived(const DataTransfer& d, SimTime at, SimTime sent) {
  finish_data(w_, d, at, sent);
}

void WorldArrivals::sent(int rank, std::uint64_t request, SimTime at) {
  complete_reply(w_, {rank, request, at, nullptr});
}

bool WorldArrivals::raise(const LaterArrival* bounds, std::size_t n) {
  std::vector<Rank*> raised; // receivers whose choices may change
  for (std::size_t i = 0; i < n; ++i) {
    Message& m = *bounds[i].message;
    if (bounds[i].at <= m.ts) continue;
    m.ts = bounds[i].at;
    if (Rank* r = w_.local(m.dst)) raised.push_back(r);
  }
  // In rank order, each once: the order in which receivers match again is the same on every run.
  std::sort(raised.begin(), raised.end(),
            [](const Rank* a, const Rank* b) { return a->id < b->id; });
  raised.erase(std::unique(raised.begin(), raised.end()), raised.end());
  for (Rank* r : raised)
    if (!r->posted.empty()) progress_matching(w_, *r);
  return !raised.empty();
}

bool WorldArrivals::here(int rank) const {
  return w_.local(rank) != nullptr;
}

void WorldArrivals::forward(Message& m, SimTime at) {
  m.ts = at;
  send_to_host(w_, &m);
}

void WorldArrivals::release(Message& m) {
  m.pending = false;
  send_to_host(w_, &m);
}

void WorldArrivals::forward_data(const DataTransfer& d, SimTime at) {
  w_.kernel().delivery.transfer_remote({d, false, true, at});
}

} // namespace mpilite
