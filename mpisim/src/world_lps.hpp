// The synchronization core's view (protocols::LocalLps) of the ranks of this host process,
// through mpilite's LP control interface.
#pragma once

#include <utility>
#include <vector>

#include "local_lps.hpp"
#include "lp_control.hpp"
#include "rank_map.hpp"
#include "world.hpp"

namespace mpisim {

using mpilite::SimTime;

class WorldLps final : public protocols::LocalLps {
public:
  WorldLps(mpilite::World& world, const RankMap& map, int host)
      : world_(world), map_(map), host_(host) {}

  std::int64_t not_done() const override;
  bool any_ready() const override { return world_.scheduler().has_ready(); }
  void undecided(const std::function<void(std::int64_t, SimTime)>& visit) override;
  protocols::Sources sources(std::int64_t id) const override;
  bool closed() const override;
  bool raise(bool all_blocked,
             const std::function<protocols::LpBound(std::int64_t)>& bound) override;
  bool moved() override { return std::exchange(quiet_steps_, world_.quiet_steps) != quiet_steps_; }
  void only_one_acts(std::int64_t id, std::uint64_t as_of) override {
    mpilite::only_one_acts(world_, static_cast<int>(id), as_of);
  }
  bool only_one_acts_here(std::int64_t id) override {
    return mpilite::only_one_acts_here(world_, static_cast<int>(id));
  }
  std::uint64_t activity() const override { return mpilite::activity(world_); }
  SimTime min_clock() const override;
  SimTime earliest_action() const override;

private:
  mpilite::World& world_;
  const RankMap& map_;
  int host_;
  std::uint64_t quiet_steps_ = 0; ///< World::quiet_steps at the last moved()
  /// (clock, rank) of the unfinished ranks, smallest first; an entry whose rank has run since
  /// is stale (clocks only grow) and is replaced when it comes to the top. Null messages read
  /// the smallest clock at every idle round: a walk over the ranks cost the rank count.
  mutable std::vector<std::pair<SimTime, mpilite::Rank*>> clocks_;
  mutable bool clocks_built_ = false;
};

} // namespace mpisim
