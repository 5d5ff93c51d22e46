// The synchronization core's view (protocols::LocalLps) of the ranks of this host process,
// through mpilite's LP control interface.
#pragma once

#include "local_lps.hpp"
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
  SimTime min_clock() const override;
  SimTime earliest_action() const override;

private:
  mpilite::World& world_;
  const RankMap& map_;
  int host_;
};

} // namespace mpisim
