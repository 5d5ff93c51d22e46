// A kernel for mpilite without the simulation: round-number message costs, one host, a time bound
// from the static lookahead, no compute charged. Tests of matching and point-to-point run
// against it, so that what they check is mpilite's own behaviour, not the machine model's.
#pragma once

#ifndef MPISIM_NO_MAIN_RENAME
#define MPISIM_NO_MAIN_RENAME 1
#endif
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "kernel.hpp"
#include "lp_control.hpp"
#include "message.hpp"
#include "request.hpp"
#include "world.hpp"
#include "world_arrivals.hpp"

namespace test {

using mpilite::SimTime;

/// Overhead 100 ns before a message's first leg, latency 1 us per leg, 1 ns per byte.
class FakeTiming : public mpilite::MessageTiming {
public:
  static constexpr SimTime kOverhead = 100'000, kLatency = 1'000'000, kPerByte = 1'000;
  static constexpr SimTime kReceive = 200'000, kPoll = 50'000;

  mpilite::LegPlan plan(const mpilite::Leg& leg) override {
    const bool first =
        leg.kind == mpilite::LegKind::Eager || leg.kind == mpilite::LegKind::RequestToSend;
    const SimTime leaves = leg.start + (first ? kOverhead : 0);
    const SimTime arrives = leaves + kLatency + static_cast<SimTime>(leg.bytes) * kPerByte;
    legs.push_back(leg.kind);
    return {leaves, leg.kind == mpilite::LegKind::Data ? arrives - kLatency : leaves, arrives};
  }
  SimTime receive_overhead(int, int, std::size_t) const override { return kReceive; }
  SimTime exchange_extra(int, int, std::size_t, std::size_t) const override { return 0; }
  std::size_t eager_limit() const override { return 1024; }
  SimTime poll_overhead() const override { return kPoll; }
  SimTime file_access(int, std::size_t) const override { return 0; }
  SimTime file_system(std::size_t) const override { return 0; }

  std::vector<mpilite::LegKind> legs; ///< every leg planned, in order
};

/// Every rank on this host: nothing to deliver elsewhere.
class NoRemoteHosts : public mpilite::HostDelivery {
public:
  void send_remote(mpilite::Message*) override { std::abort(); }
  void reply_remote(const mpilite::Reply&) override { std::abort(); }
  void transfer_remote(const mpilite::Transfer&) override { std::abort(); }
};

/// With every rank stopped, none sends before the earliest action of any plus the latency.
class StaticLookahead : public mpilite::TimeBounds {
public:
  explicit StaticLookahead(std::function<bool()> settle = {}) : settle_(std::move(settle)) {}
  void attach(mpilite::World& w) { w_ = &w; }
  bool idle() override {
    if (settle_ && settle_()) return true;
    const SimTime bound = mpilite::saturating_add(w_->earliest_undecided(), FakeTiming::kLatency);
    bool ready = false;
    std::vector<mpilite::Rank*> undecided;
    mpilite::for_each_undecided(*w_, [&](mpilite::Rank& r, SimTime) { undecided.push_back(&r); });
    for (mpilite::Rank* r : undecided)
      ready = mpilite::raise_input_bound(*w_, *r, bound, bound) || ready;
    return ready;
  }

private:
  mpilite::World* w_ = nullptr;
  std::function<bool()> settle_;
};

class NoHooks : public mpilite::CallHooks {
public:
  void enter_mpi(mpilite::Rank&) override {}
  void leave_mpi(mpilite::Rank&) override {}
};

/// Runs `body` as the main of `ranks` ranks against `timing` and `policy`; returns every rank's
/// final clock (-1 each unless the run finished). `settle` is called first at every idle round;
/// `world_size` > `ranks` puts the other ranks on a host process that never sends.
inline std::vector<SimTime> run_fake(int ranks, mpilite::MessageTiming& timing,
                                     mpilite::MatchPolicy& policy,
                                     std::function<int(int, char**)> body,
                                     std::function<bool(mpilite::World&)> settle = {},
                                     int world_size = 0) {
  NoRemoteHosts delivery;
  NoHooks hooks;
  mpilite::World* world = nullptr;
  StaticLookahead bounds(settle ? std::function<bool()>([&] { return settle(*world); })
                                : std::function<bool()>());
  std::vector<int> local(static_cast<std::size_t>(ranks));
  for (int i = 0; i < ranks; ++i)
    local[static_cast<std::size_t>(i)] = i;
  mpilite::World w({timing, delivery, bounds, hooks, policy}, std::max(ranks, world_size), local,
                   64 * 1024);
  world = &w;
  bounds.attach(w);
  char name[] = "fake";
  char* argv[] = {name, nullptr};
  const mpilite::RunEnd end = w.run(body, 1, argv);
  std::vector<SimTime> clocks;
  for (const auto& r : w.ranks())
    clocks.push_back(end == mpilite::RunEnd::Finished ? r->clock : -1);
  return clocks;
}

} // namespace test
