// Flow-level link sharing: messages in flight share the links of their routes max-min fairly.
// Each flow needs `work` picoseconds of transmission when alone; each link serves its flows at a
// total rate of 1 (one flow alone goes at full speed, two equal flows on one link at half speed
// each). Work and rates are integers: the same on every host, shares among up to 16 flows exact,
// and where a share must round it rounds down, so no flow goes faster than its link allows. The
// model only moves forward: flows are added with a start no earlier than the time it has been
// advanced to.
#pragma once

#include <cstdint>
#include <functional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "network_topology.hpp"
#include "sim_time.hpp"

namespace mpisim {

using mpilite::SimTime;

class FlowNetwork {
public:
  /// Transmission still to do, in picoseconds at full speed times a link's capacity in Rate
  /// units: integer, like time.
  using Work = __int128;
  /// A flow's share of its links, in units of which a link has 720720 * 2^20 (flow_network.cpp).
  using Rate = std::int64_t;

  /// Orders flows independently of the order the host happened to create them in: start time,
  /// sending rank, the sender's message sequence number, and 0 for eager data, 1 for rendezvous.
  using Key = std::tuple<SimTime, int, std::uint64_t, int>;

  struct Flow {
    SimTime start = 0; ///< when its first byte leaves
    SimTime work = 0;  ///< transmission time alone on its links (> 0)
    std::vector<Topology::Link> links;
    std::size_t payload = 0; ///< the caller's handle
  };

  struct Finished {
    Key key;
    std::size_t payload;
    SimTime finish; ///< when its last byte left
  };

  /// Adds a flow; `f.start` must be at least now().
  void add(const Key& key, const Flow& f);
  bool empty() const { return flows_.empty(); }
  /// The time the model has been advanced to.
  SimTime now() const { return now_; }

  /// The flows that finish, if no flow is added, at or before a horizon that starts at
  /// `horizon` and shrinks to effect(f) for each flow f found (effect(f) >= f.finish): the
  /// flows whose end nothing can still change when no flow starts before the final horizon.
  /// In order of finish time, then key.
  std::vector<Finished> finishes_until(SimTime horizon,
                                       const std::function<SimTime(const Finished&)>& effect) const;
  /// For every flow, the earliest it can finish if flows may be added from `t` on (t >= now()):
  /// the projection up to t, then full speed. As (payload, time).
  std::vector<std::pair<std::size_t, SimTime>> finish_lower_bounds(SimTime t) const;
  /// Moves the model to `t` (no flow may be added before t afterwards) and returns the flows that
  /// finished at or before t, in order of finish time, then key.
  std::vector<Finished> advance(SimTime t);

private:
  struct State {
    Key key;
    SimTime start;
    std::size_t payload;
    std::size_t first_link; ///< its dense link numbers are links_[first_link, +link_count)
    std::size_t link_count;
    Work remaining; ///< transmission still to do (may end below 0 within its last picosecond)
  };
  /// In key order; plain values, so that projections copy them cheaply.
  using States = std::vector<State>;

  /// Runs `states` from `from` on, event by event (a flow starts, flows finish), while
  /// go_on_to(time of the next event) says so and the time stays within `to`; returns the time
  /// reached (`to` when stopped by it).
  SimTime run(States& states, SimTime from, SimTime to,
              const std::function<bool(SimTime)>& go_on_to, std::vector<Finished>* finished) const;
  /// Max-min fair rates of `flows` (all started), in their order.
  std::vector<Rate> rates(const std::vector<State*>& flows) const;

  States flows_;
  SimTime now_ = 0;
  std::unordered_map<Topology::Link, int> link_numbers_;
  std::vector<int> links_; ///< the routes of all flows ever added, as dense link numbers
};

} // namespace mpisim
