#include "world_lps.hpp"

#include <algorithm>

#include "lp_control.hpp"

namespace mpisim {

using mpilite::kTimeInfinity;
using mpilite::Rank;
using mpilite::TaskState;

std::int64_t WorldLps::not_done() const {
  return static_cast<std::int64_t>(world_.ranks().size() - world_.scheduler().done_count());
}

void WorldLps::undecided(const std::function<void(std::int64_t, SimTime)>& visit) {
  mpilite::for_each_undecided(world_, [&](Rank& r, SimTime act) { visit(r.id, act); });
}

protocols::Sources WorldLps::sources(std::int64_t id) const {
  const Rank& rank = *world_.local(static_cast<int>(id));
  if (mpilite::waits_on_any_source(rank)) return {true, protocols::kAllHosts};
  protocols::Sources s;
  const bool narrowed = mpilite::for_each_potential_source(rank, [&](int world_rank) {
    const int h = map_.host_of(world_rank);
    if (h == host_)
      s.local = true;
    else
      s.remote |= protocols::host_bit(h);
  });
  if (!narrowed) return {true, protocols::kAllHosts};
  return s;
}

bool WorldLps::closed() const {
  return mpilite::all_wait_within_host(world_);
}

bool WorldLps::raise(bool all_blocked,
                     const std::function<protocols::LpBound(std::int64_t)>& bound) {
  bool woke = false;
  const auto one = [&](Rank& r) {
    const protocols::LpBound b = bound(r.id);
    woke = mpilite::raise_input_bound(world_, r, b.now, b.keep) || woke;
  };
  if (all_blocked)
    mpilite::for_each_blocked(world_, one);
  else
    mpilite::for_each_undecided(world_, [&](Rank& r, SimTime) { one(r); });
  return woke;
}

SimTime WorldLps::min_clock() const {
  constexpr auto later = [](const auto& a, const auto& b) { return a.first > b.first; };
  if (!clocks_built_) {
    clocks_built_ = true;
    for (const auto& r : world_.ranks())
      if (r->task.state != TaskState::Done) clocks_.emplace_back(r->clock, r.get());
    std::make_heap(clocks_.begin(), clocks_.end(), later);
  }
  while (!clocks_.empty()) {
    const auto [clock, rank] = clocks_.front();
    const bool done = rank->task.state == TaskState::Done;
    if (!done && rank->clock == clock) return clock;
    std::pop_heap(clocks_.begin(), clocks_.end(), later);
    if (done) {
      clocks_.pop_back();
    } else {
      clocks_.back().first = rank->clock;
      std::push_heap(clocks_.begin(), clocks_.end(), later);
    }
  }
  return kTimeInfinity;
}

SimTime WorldLps::earliest_action() const {
  SimTime low = kTimeInfinity;
  for (const auto& r : world_.ranks())
    if (r->task.state != TaskState::Done) low = std::min(low, mpilite::earliest_action(*r));
  return low;
}

} // namespace mpisim
