#include "local_bound.hpp"

#include <algorithm>

#include "matching.hpp"

namespace mpisim {

using mpilite::kTimeInfinity;
using mpilite::Rank;
using mpilite::SimTime;

namespace {

SimTime plus(SimTime t, SimTime d) {
  return t >= kTimeInfinity ? kTimeInfinity : t + d;
}

SimTime earliest_output(const Rank& r, SimTime lookahead) {
  return plus(std::min(r.undecided_key, r.decide_time), lookahead);
}

} // namespace

SimTime earliest_decision(mpilite::World& world) {
  SimTime s = kTimeInfinity;
  for (const Rank* r : world.undecided())
    if (r->task.state != mpilite::TaskState::Done)
      s = std::min({s, r->undecided_key, r->decide_time});
  return s;
}

bool advance_local_bounds(mpilite::World& world, SimTime lookahead, SimTime input_bound) {
  auto& list = world.undecided();
  // Drop ranks that have nothing left to decide.
  std::erase_if(list, [&](Rank* r) {
    if (earliest_output(*r, lookahead) < kTimeInfinity && r->task.state != mpilite::TaskState::Done)
      return false;
    r->in_undecided_list = false;
    return true;
  });
  SimTime g = kTimeInfinity, g2 = kTimeInfinity;
  const Rank* arg = nullptr;
  for (const Rank* r : list) {
    const SimTime k = earliest_output(*r, lookahead);
    if (k < g) {
      g2 = g;
      g = k;
      arg = r;
    } else if (k < g2) {
      g2 = k;
    }
  }
  bool woke = false;
  // Iterate over a copy: matching may add ranks to the list.
  const std::vector<Rank*> ranks(list.begin(), list.end());
  for (Rank* r : ranks) {
    const SimTime eit = std::min(r == arg ? std::min(g2, plus(g, lookahead)) : g, input_bound);
    r->eit = std::max(r->eit, eit);
    const auto before = r->task.state;
    mpilite::progress_matching(world, *r);
    if (r->decide_time < r->eit) world.scheduler().wake(r->task);
    woke = woke ||
           (before == mpilite::TaskState::Blocked && r->task.state == mpilite::TaskState::Ready);
  }
  return woke;
}

} // namespace mpisim
