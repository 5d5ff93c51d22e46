#include "flow_network.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

namespace mpisim {
namespace {

using mpilite::kTimeInfinity;
using Work = FlowNetwork::Work;
using Rate = FlowNetwork::Rate;

/// A link's capacity: the rate of a flow alone at full speed. A multiple of 1..16 and of 2^20,
/// so that the shares of up to 16 flows on a link, and most max-min levels, are exact.
constexpr Rate kFull = Rate{720720} << 20;

/// Whole picoseconds to do `w` at rate `r`: rounded up, so no flow is faster than its share.
SimTime whole_ps(Work w, Rate r) {
  if (w <= 0) return 0;
  return static_cast<SimTime>((w + r - 1) / r);
}

} // namespace

void FlowNetwork::add(const Key& key, const Flow& f) {
  if (f.start < now_)
    throw std::logic_error(
        fmt::format("a flow starts at {} ps, before the network's time {} ps", f.start, now_));
  // Routes are kept while flows live; when most of the space is dead, it is compacted.
  std::size_t live = 0;
  for (const State& x : flows_)
    live += x.link_count;
  if (links_.size() > 4096 && links_.size() > 4 * live) {
    std::vector<int> kept;
    kept.reserve(2 * live);
    for (State& x : flows_) {
      kept.insert(kept.end(), links_.begin() + static_cast<std::ptrdiff_t>(x.first_link),
                  links_.begin() + static_cast<std::ptrdiff_t>(x.first_link + x.link_count));
      x.first_link = kept.size() - x.link_count;
    }
    links_ = std::move(kept);
  }
  const State s{key,           f.start,        f.payload,
                links_.size(), f.links.size(), static_cast<Work>(f.work) * kFull};
  for (Topology::Link l : f.links) {
    const auto [it, added] = link_numbers_.try_emplace(l, static_cast<int>(link_numbers_.size()));
    links_.push_back(it->second);
  }
  const auto at = std::lower_bound(flows_.begin(), flows_.end(), key,
                                   [](const State& x, const Key& k) { return x.key < k; });
  flows_.insert(at, s);
}

std::vector<Rate> FlowNetwork::rates(const std::vector<State*>& flows) const {
  // Progressive filling: all unfrozen flows rise together until a link is full; the flows on
  // full links keep that rate. A flow alone is limited to its full speed, kFull. Shares round
  // down, so the rates on a link never add up to more than its capacity.
  const std::size_t links = link_numbers_.size();
  std::vector<Rate> frozen(links, 0);
  std::vector<int> unfrozen(links, 0);
  auto links_of = [this](const State* f) {
    return std::span<const int>(links_.data() + f->first_link, f->link_count);
  };
  std::vector<int> touched; // links that carry a flow, in first-seen order
  for (const State* f : flows)
    for (int l : links_of(f))
      if (unfrozen[static_cast<std::size_t>(l)]++ == 0) touched.push_back(l);
  // The flows on each link, in flow order: on_link[first[l], first[l + 1]).
  std::vector<std::size_t> first(links + 1, 0);
  for (int l : touched)
    first[static_cast<std::size_t>(l) + 1] =
        static_cast<std::size_t>(unfrozen[static_cast<std::size_t>(l)]);
  for (std::size_t l = 0; l < links; ++l)
    first[l + 1] += first[l];
  std::vector<int> on_link(first[links]);
  std::vector<std::size_t> fill(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < flows.size(); ++i)
    for (int l : links_of(flows[i]))
      on_link[fill[static_cast<std::size_t>(l)]++] = static_cast<int>(i);

  auto share = [&](int l) {
    const auto u = static_cast<std::size_t>(l);
    return (kFull - frozen[u]) / unfrozen[u];
  };
  std::vector<Rate> rate(flows.size(), -1);
  std::size_t left = flows.size();
  std::vector<int> full, freeze;
  while (left > 0) {
    // Links without unfrozen flows drop out of `touched` as they go.
    std::erase_if(touched, [&](int l) { return unfrozen[static_cast<std::size_t>(l)] == 0; });
    Rate level = kFull;
    for (int l : touched)
      level = std::min(level, share(l));
    freeze.clear();
    if (level >= kFull) {
      for (std::size_t i = 0; i < flows.size(); ++i)
        if (rate[i] < 0) freeze.push_back(static_cast<int>(i));
    } else {
      full.clear();
      for (int l : touched)
        if (share(l) == level) full.push_back(l);
      for (int l : full)
        for (std::size_t k = first[static_cast<std::size_t>(l)];
             k < first[static_cast<std::size_t>(l) + 1]; ++k) {
          const auto i = static_cast<std::size_t>(on_link[k]);
          if (rate[i] < 0) {
            rate[i] = level;
            freeze.push_back(static_cast<int>(i));
          }
        }
    }
    for (int i : freeze) {
      rate[static_cast<std::size_t>(i)] = level;
      for (int l : links_of(flows[static_cast<std::size_t>(i)])) {
        frozen[static_cast<std::size_t>(l)] += level;
        --unfrozen[static_cast<std::size_t>(l)];
      }
    }
    left -= freeze.size();
  }
  return rate;
}

SimTime FlowNetwork::run(States& states, SimTime from, SimTime to,
                         const std::function<bool(SimTime)>& go_on_to,
                         std::vector<Finished>* finished) const {
  SimTime t = from;
  std::vector<State*> active;
  while (!states.empty()) {
    active.clear();
    SimTime next_start = kTimeInfinity;
    for (State& s : states) {
      if (s.start <= t)
        active.push_back(&s);
      else
        next_start = std::min(next_start, s.start);
    }
    const std::vector<Rate> rate = rates(active);
    SimTime next_finish = kTimeInfinity;
    for (std::size_t i = 0; i < active.size(); ++i)
      next_finish = std::min(next_finish, t + whole_ps(active[i]->remaining, rate[i]));
    const SimTime next = std::min(next_start, next_finish);
    const bool batch = next == next_finish;
    if (next > to || !go_on_to(next)) {
      const SimTime until = std::min(next, to);
      if (next > to)
        for (std::size_t i = 0; i < active.size(); ++i)
          active[i]->remaining -= rate[i] * static_cast<Work>(until - t);
      return next > to ? to : t;
    }
    for (std::size_t i = 0; i < active.size(); ++i)
      active[i]->remaining -= rate[i] * static_cast<Work>(next - t);
    t = next;
    if (!batch) continue;
    std::erase_if(states, [&](const State& s) {
      if (s.start > t || s.remaining > 0) return false;
      if (finished) finished->push_back({s.key, s.payload, t});
      return true;
    });
  }
  return t;
}

std::vector<FlowNetwork::Finished>
FlowNetwork::finishes_until(SimTime horizon,
                            const std::function<SimTime(const Finished&)>& effect) const {
  States copy = flows_;
  std::vector<Finished> finished;
  std::size_t seen = 0;
  run(
      copy, now_, kTimeInfinity,
      [&](SimTime at) {
        for (; seen < finished.size(); ++seen)
          horizon = std::min(horizon, effect(finished[seen]));
        return at <= horizon;
      },
      &finished);
  return finished;
}

std::vector<std::pair<std::size_t, SimTime>> FlowNetwork::finish_lower_bounds(SimTime t) const {
  States copy = flows_;
  std::vector<Finished> finished;
  const SimTime reached = run(
      copy, now_, std::max(t, now_), [](SimTime) { return true; }, &finished);
  std::vector<std::pair<std::size_t, SimTime>> bounds;
  for (const Finished& f : finished)
    bounds.emplace_back(f.payload, f.finish);
  for (const State& s : copy)
    bounds.emplace_back(s.payload, std::max(s.start, reached) + whole_ps(s.remaining, kFull));
  return bounds;
}

std::vector<FlowNetwork::Finished> FlowNetwork::advance(SimTime t) {
  std::vector<Finished> finished;
  if (t <= now_) return finished;
  run(
      flows_, now_, t, [](SimTime) { return true; }, &finished);
  now_ = t;
  return finished;
}

} // namespace mpisim
