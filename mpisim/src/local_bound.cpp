#include "local_bound.hpp"

#include <algorithm>

#include "matching.hpp"

namespace mpisim {

using mpilite::kTimeInfinity;
using mpilite::Rank;
using mpilite::SimTime;
using mpilite::TaskState;

namespace {

SimTime plus(SimTime t, SimTime d) {
  return t >= kTimeInfinity ? kTimeInfinity : t + d;
}

SimTime earliest_output(const Rank& r, SimTime lookahead) {
  return plus(std::min(r.undecided_key, r.decide_time), lookahead);
}

bool raise_one(mpilite::World& world, Rank& r, RankBound b) {
  // A narrowed bound holds only for what the rank waits for now: it must not outlive them.
  const SimTime kept = std::max(r.eit, b.keep);
  r.eit = std::max(r.eit, b.now);
  const auto before = r.task.state;
  if (r.undecided_key < kTimeInfinity) mpilite::progress_matching(world, r);
  if (r.decide_time < r.eit) world.scheduler().wake(r.task);
  r.eit = kept;
  return before == TaskState::Blocked && r.task.state == TaskState::Ready;
}

} // namespace

LocalK local_k(mpilite::World& world, SimTime lookahead) {
  auto& list = world.undecided();
  std::erase_if(list, [&](Rank* r) {
    if (earliest_output(*r, lookahead) < kTimeInfinity && r->task.state != TaskState::Done)
      return false;
    r->in_undecided_list = false;
    return true;
  });
  LocalK k;
  for (const Rank* r : list) {
    const SimTime v = earliest_output(*r, lookahead);
    if (v < k.g) {
      k.g2 = k.g;
      k.g = v;
      k.arg = r->id;
    } else if (v < k.g2) {
      k.g2 = v;
    }
  }
  return k;
}

SimTime local_eit(const LocalK& k, const Rank& rank, SimTime lookahead, SimTime remote) {
  const SimTime others = rank.id == k.arg ? k.g2 : k.g;
  return std::min({others, plus(std::min(k.g, remote), lookahead), remote});
}

bool raise_bounds(mpilite::World& world, const std::function<RankBound(const Rank&)>& eit,
                  bool all) {
  bool woke = false;
  if (all) {
    for (const auto& r : world.ranks())
      if (r->task.state == TaskState::Blocked) woke = raise_one(world, *r, eit(*r)) || woke;
    return woke;
  }
  // A copy: matching may add ranks to the list.
  const std::vector<Rank*> ranks(world.undecided().begin(), world.undecided().end());
  for (Rank* r : ranks)
    woke = raise_one(world, *r, eit(*r)) || woke;
  return woke;
}

bool advance_local_bounds(mpilite::World& world, SimTime lookahead, SimTime held) {
  const LocalK k = local_k(world, lookahead);
  return raise_bounds(world, [&](const Rank& r) {
    const SimTime b = local_eit(k, r, lookahead, held);
    return RankBound{b, b};
  });
}

SimTime earliest_decision(mpilite::World& world) {
  SimTime s = kTimeInfinity;
  for (const Rank* r : world.undecided())
    if (r->task.state != TaskState::Done) s = std::min({s, r->undecided_key, r->decide_time});
  return s;
}

} // namespace mpisim
