// One simulation run on this host process: puts mpilite's kernel together (the network model
// times messages, the host link delivers to other hosts, the DET policy matches), charges compute
// at every MPI call, drives the time bounds when no rank can run, and summarizes the run for the
// report.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute_clock.hpp"
#include "config.hpp"
#include "det_policy.hpp"
#include "folded_heap.hpp"
#include "host_link.hpp"
#include "kernel.hpp"
#include "network_model.hpp"
#include "observer.hpp"
#include "rank_map.hpp"
#include "replay_checks.hpp"
#include "run_control.hpp"
#include "sampling.hpp"
#include "sync_stats.hpp"
#include "world.hpp"

namespace mpisim {

/// Per-rank figures kept after the run.
struct RankSummary {
  int rank = 0;
  SimTime clock = 0;
  mpilite::RankStats stats;
  int exit_code = 0;
  bool finalized = false;
  bool exited = false; ///< ended by exit() rather than by returning from main
};

/// MPISIM_CRITICAL_PATH: the path of the rank that finished last (on a tie, the lowest rank).
struct CriticalPath {
  int rank = 0;
  SimTime clock = 0;
  mpilite::CritPath path;
  /// Whether it ends later than `o` (the run's ends where no other does).
  bool later_than(const CriticalPath& o) const {
    return clock != o.clock ? clock > o.clock : rank < o.rank;
  }
};

/// One host process's share of the work and its protocol statistics.
struct HostSummary {
  int host = 0;
  std::uint64_t ranks = 0;
  protocols::SyncStats sync;
  std::uint64_t local_messages = 0;
  std::uint64_t context_switches = 0;
  std::uint64_t idle_rounds = 0;
  /// Peak memory of the host process (KiB): the resident set's high-water mark, or with folded
  /// blocks (which the resident set counts once per mapping) the largest sampled PSS.
  long peak_memory_kib = 0;
  mpilite::FoldStats fold; ///< memory folding in this host process
};

/// What a run produced: everything the report needs.
struct RunSummary {
  int hosts = 1;
  bool reporting_host = true; ///< host 0 prints the report; the others only run
  std::vector<HostSummary> host_stats;
  mpilite::RunEnd reason = mpilite::RunEnd::Finished;
  int exit_code = 0;                ///< the process exit code this run calls for
  std::string message;              ///< abort / fatal error text
  std::vector<std::string> blocked; ///< deadlock: one line per blocked rank
  std::vector<RankSummary> ranks;
  SimTime predicted = 0; ///< largest final clock
  double wall_seconds = 0;
  double setup_seconds = 0; ///< of wall_seconds, before the ranks started (host 0's)
  long peak_rss_kib = 0;    ///< largest HostSummary::peak_memory_kib
  std::vector<mpilite::SampleSiteSummary> sampling; ///< MPISIM_SAMPLE_* sites, over all hosts
  std::uint64_t context_switches = 0;
  std::uint64_t local_messages = 0;
  std::uint64_t remote_messages = 0;
  std::string map;               ///< RankMap::description(): the mapping used
  std::uint64_t idle_rounds = 0; ///< times the host had no runnable rank and computed bounds
  std::string overflow_check;    ///< StackPool::describe()
  bool state_in_stack = false;   ///< mpilite::World::states_in_stacks()
  /// MPISIM_EPOCH as resolved: what real-time clocks read at time 0 (seconds since 1970, UTC),
  /// and how it was chosen ("launch", "fixed" or "date").
  std::int64_t calendar_epoch_s = 0;
  std::string calendar;
  std::vector<std::string> timeline;         ///< the report's ASCII timeline (up to 64 ranks)
  std::vector<std::string> output_errors;    ///< trace, matrix or record files not written
  std::optional<ReplayChecks> replay;        ///< mpisim-replay: its outcomes against the record's
  std::optional<CriticalPath> critical_path; ///< MPISIM_CRITICAL_PATH (over all hosts)
};

class Simulation final : public mpilite::TimeBounds, public mpilite::CallHooks {
public:
  explicit Simulation(Config config);

  /// Simulates `main` on config.ranks ranks of this host process. `replay`: what the ranks of a
  /// replay (replay_main) found of their outcomes on this host process, for the summary.
  RunSummary run(const mpilite::World::Main& main, int argc, char** argv,
                 const ReplayChecks* replay = nullptr);

  const Config& config() const { return config_; }

  // mpilite::TimeBounds
  bool idle() override;
  bool settle_before_block() override;
  // mpilite::CallHooks
  void enter_mpi(mpilite::Rank& rank) override;
  void leave_mpi(mpilite::Rank& rank) override;
  void region_begins(mpilite::Rank& rank) override;
  void region_ends(mpilite::Rank& rank, const mpilite::RegionWork& work) override;
  void region_call(mpilite::Rank& rank, const mpilite::RegionWork& so_far) override;
  /// Target time (ps) that a parallel region which did `work` on rank `rank` of machine `m`
  /// stands for, from its start (docs/model.md, OpenMP inside a rank).
  static double region_ps(const MachineParams& m, const mpilite::RegionWork& work, int rank);
  void sent(const mpilite::Message& m, SimTime start) override;
  void received(const mpilite::Message& m, int dst, SimTime t_match) override;

private:
  /// Adds the rank's compute since its compute mark, as target time, to what its next MPI call
  /// charges (before a region, and on entry to MPI).
  void carry_burst(mpilite::Rank& rank);
  /// Makes the rank's carried compute what brings its clock to `region_ps` past the start of
  /// its region under way.
  void carry_region(mpilite::Rank& rank, double region_ps);
  void gather_hosts(RunSummary& s, HostSummary mine);
  /// Ends the run on every host unless all computed `map` alike (each reads its own files).
  void check_same_map(const RankMap& map);
  /// MPISIM_EPOCH resolved into `s`: the launch instant is host 0's, sent to all (a collective).
  void choose_calendar(RunSummary& s);
  /// MPISIM_DET: the matching policy.
  void make_policy();
  /// A recorded profile: host 0 writes the file from every host's part (a collective).
  void write_det_profile(int hosts, bool reporting_host);
  /// A send broke the DET profile's promise: ends the run on every host.
  [[noreturn]] void profile_broken(std::string why);

  Config config_;
  std::unique_ptr<NetworkModel> network_; ///< MPISIM_NETWORK
  mpilite::World* world_ = nullptr;
  std::unique_ptr<mpilite::Arrivals> arrivals_; ///< world_ as the network model sees it
  std::unique_ptr<HostLink> link_;
  std::uint64_t idle_rounds_ = 0;
  std::unique_ptr<Observer> observer_; ///< traces, matrix, timeline, recording (null: none)
  std::unique_ptr<mpilite::MatchPolicy> policy_; ///< DET, or exact matching
  DetPolicy* det_ = nullptr;                     ///< policy_ when it is DET
  /// Times compute bursts with MPISIM_CPU=measured.
  std::optional<ComputeClock> compute_clock_;
  std::unique_ptr<RunControl> control_; ///< limits, signals, progress (while ranks run)
};

} // namespace mpisim
