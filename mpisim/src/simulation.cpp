#include "simulation.hpp"

#include <utility>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "auto_fold.hpp"
#include "deadlock.hpp"
#include "host_clock.hpp"
#include "overflow_guard.hpp"
#include "report.hpp"
#include "summary_codec.hpp"
#include "time_limit.hpp"
#include "world_arrivals.hpp"

namespace mpisim {
namespace {

long peak_memory_kib() {
  // The resident set counts a folded page once per address it is mapped at: with folding, only
  // the proportional set size tells the memory used.
  if (mpilite::folding_used()) return mpilite::sampled_peak_memory_kib();
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/// The link a fault in a rank ends the job through, when there are several host processes.
HostLink* g_fault_link = nullptr;

void end_job_on_fault(int code) {
  g_fault_link->abort_from_fault(code);
}

} // namespace

Simulation::Simulation(Config config)
    : config_(std::move(config)), network_(make_network_model(config_.machine, config_.ranks)) {
  if (config_.cpu != CpuMode::Off) compute_clock_.emplace();
}

void Simulation::sent(const mpilite::Message& m, SimTime start) {
  if (observer_) observer_->sent(m, start);
}

void Simulation::received(const mpilite::Message& m, int dst, SimTime t_match) {
  if (observer_) observer_->received(m, dst, t_match);
}

void Simulation::enter_mpi(mpilite::Rank& rank) {
  // The clock is read first and (in leave_mpi) last: the simulator's own work is not charged.
  // Inside a parallel region, the threads' work is measured by the region (region_call).
  if (compute_clock_ && rank.region_threads == 0) carry_burst(rank);
  const SimTime before = rank.clock;
  const char* call = rank.call.name ? rank.call.name : "the end of its main";
  if (compute_clock_) {
    const double ps = std::exchange(rank.compute_carried_ps, 0);
    // Checked as a double: converting a time past the limit to SimTime is undefined.
    if (!mpilite::within_time_limit(ps + static_cast<double>(rank.clock)))
      mpilite::fail_time_limit(
          rank, fmt::format("{}: the compute before it, {:g} s of target time (host CPU time "
                            "times MPISIM_CPU_SCALE={:g}{})",
                            call, ps * 1e-12, config_.machine.cpu_scale,
                            config_.machine.node_speeds.empty() ? "" : " over its node's speed"));
    rank.spend_compute(static_cast<SimTime>(ps));
  }
  // Waiting and overheads stay below twice the limit (sim_time.hpp); caught at the next call.
  if (rank.clock > mpilite::kTimeLimit) mpilite::fail_time_limit(rank, call);
  if (observer_) observer_->enter(rank, before);
  if (control_) control_->at_call(rank);
}

void Simulation::leave_mpi(mpilite::Rank& rank) {
  if (observer_) observer_->leave(rank);
  if (!compute_clock_) return;
  compute_clock_->refresh();
  rank.compute_mark = compute_clock_->now();
}

void Simulation::carry_burst(mpilite::Rank& rank) {
  rank.compute_carried_ps +=
      config_.machine.compute_ps(compute_clock_->burst_ns(rank.compute_mark), rank.id);
}

void Simulation::region_begins(mpilite::Rank& rank) {
  if (!compute_clock_) return;
  carry_burst(rank);
  mpilite::RankRare& region = rank.rare();
  region.region_start_clock = rank.clock;
  region.region_start_carried_ps = rank.compute_carried_ps;
}

void Simulation::carry_region(mpilite::Rank& rank, double region_ps) {
  // The master's MPI calls in the region moved the clock already: by the region's time up to
  // each call, and by the calls themselves, both part of `region_ps`.
  const mpilite::RankRare& region = rank.rare();
  const double moved = static_cast<double>(rank.clock - region.region_start_clock);
  rank.compute_carried_ps = std::max(0.0, region.region_start_carried_ps + region_ps - moved);
}

void Simulation::region_call(mpilite::Rank& rank, const mpilite::RegionWork& so_far) {
  if (compute_clock_) carry_region(rank, region_ps(config_.machine, so_far, rank.id));
}

void Simulation::region_ends(mpilite::Rank& rank, const mpilite::RegionWork& work) {
  ++rank.stats.parallel_regions;
  rank.stats.widest_team = std::max(rank.stats.widest_team, work.threads);
  if (!compute_clock_) return;
  carry_region(rank, region_ps(config_.machine, work, rank.id));
  compute_clock_->refresh();
  rank.compute_mark = compute_clock_->now();
}

double Simulation::region_ps(const MachineParams& m, const mpilite::RegionWork& work, int rank) {
  const auto ps = [&](std::int64_t ns) { return m.compute_ps(static_cast<double>(ns), rank); };
  // Each thread on a core of its own while there are enough: a barrier makes every thread wait
  // for the slowest, so each phase lasts as long as its busiest thread, or as the master's work
  // and MPI calls where it made some.
  double path = ps(work.most_ns);
  // With more threads than cores, the team's work shares them; the master's calls hold its core.
  double all = ps(work.total_ns);
  for (const mpilite::PhaseCalls& p : work.calls) {
    const double master = ps(p.master_ns) + static_cast<double>(p.calls);
    path += std::max(0.0, master - ps(p.most_ns));
    all += static_cast<double>(p.calls);
  }
  double region = std::max(path, all / static_cast<double>(m.cores_per_rank));
  if (work.threads > 1) region += static_cast<double>(m.fork_join);
  return region;
}

void Simulation::make_policy() {
  if (!config_.det) {
    if (!config_.det_profile_path.empty())
      throw ConfigError("MPISIM_DET_PROFILE needs deterministic mode (MPISIM_DET=1)");
    policy_ = std::make_unique<mpilite::ExactMatching>();
    return;
  }
  auto det =
      std::make_unique<DetPolicy>(config_.det_profile_path, config_.ranks,
                                  [this](std::string why) { profile_broken(std::move(why)); });
  det_ = det.get();
  policy_ = std::move(det);
}

void Simulation::profile_broken(std::string why) {
  if (world_->in_rank()) world_->stop(mpilite::RunEnd::FatalError, 1, why);
  std::fprintf(stderr, "mpisim: MPI error: %s\n", why.c_str());
  link_->abort_all(1);
}

void Simulation::write_det_profile(int hosts, bool reporting_host) {
  if (!det_ || !det_->recording()) return;
  const std::string mine = det_->recorded_part();
  const std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(mine.data()),
                                     reinterpret_cast<const std::byte*>(mine.data()) + mine.size());
  const auto parts = hosts > 1 ? link_->gather(bytes) : std::vector<std::vector<std::byte>>{bytes};
  if (!reporting_host) return;
  std::vector<std::string> texts;
  for (const auto& p : parts)
    texts.emplace_back(reinterpret_cast<const char*>(p.data()), p.size());
  det_->write_profile(texts, config_.ranks);
}

bool Simulation::idle() {
  ++idle_rounds_;
  if (control_ && !control_->at_idle()) return false;
  // The same first step as a rank's that blocks last: their decisions must be the same.
  if (settle_before_block()) return true;
  return link_->idle([this] {
    world_->network_looked();
    return network_->held(*arrivals_);
  });
}

bool Simulation::settle_before_block() {
  return network_->settle(*arrivals_, link_->remote_bound());
}

RunSummary Simulation::run(const mpilite::World::Main& main, int argc, char** argv,
                           const ReplayChecks* replay) {
  const auto start = mpilite::HostSteadyClock::now();
  make_policy();
  const std::optional<CommGraph> map_graph = read_auto_map_graph(config_);
  network_->reset();
  if (protocols::launched_as_several_processes()) {
    int ac = argc;
    char** av = argv;
    link_ = std::make_unique<HostLink>(protocols::open_mpich_transport(&ac, &av));
  } else {
    link_ = std::make_unique<HostLink>(std::make_unique<protocols::SingleHost>());
  }
  const int hosts = link_->hosts();
  const int host = link_->host();
  if (hosts > 1) {
    // mpiexec merges the host processes' output from their pipes as it comes, and MPICH's
    // start-up leaves stdout unbuffered: puts() wrote a line and its newline in two writes,
    // and another process's line landed between them. Each line is one write instead, as on a
    // terminal. The buffer is given: glibc keeps an unbuffered stream's one byte otherwise.
    static char line_buffer[BUFSIZ];
    std::fflush(stdout);
    std::setvbuf(stdout, line_buffer, _IOLBF, sizeof line_buffer);
    g_fault_link = link_.get();
    mpilite::set_fault_exit(&end_job_on_fault);
  }
  const RankMap map(config_, map_graph, hosts);
  if (hosts > 1) check_same_map(map);
  RunSummary s;
  s.hosts = hosts;
  s.reporting_host = host == 0;
  s.map = map.description();
  choose_calendar(s);
  HostSummary mine;
  mine.host = host;
  std::uint64_t det_profile_receives = 0;
  {
    const mpilite::Kernel kernel{*network_, *link_, *this, *this, *policy_};
    control_ = std::make_unique<RunControl>(config_, s.reporting_host);
    std::vector<int> local_ranks = map.ranks_of(host);
    const std::size_t shared = config_.shared_stacks ? shared_stack_count(local_ranks.size()) : 0;
    auto world_owner = std::make_unique<mpilite::World>(
        kernel, config_.ranks, std::move(local_ranks), config_.stack_size, config_.copy_stacks,
        config_.state_in_stack, shared);
    mpilite::World& world = *world_owner;
    // However this block is left, the watchdog stops before the world goes.
    const auto stop_control = [this](Simulation*) { control_.reset(); };
    const std::unique_ptr<Simulation, decltype(stop_control)> control_ends(this, stop_control);
    world_ = &world;
    arrivals_ = std::make_unique<mpilite::WorldArrivals>(world);
    observer_ = Observer::make(config_, host);
    if (observer_) world.op_log = observer_->op_log();
    world.track_served = world.op_log != nullptr;
    world.simulated_libc_time = config_.simulated_libc_time;
    world.calendar_epoch_s = s.calendar_epoch_s;
    world.ranks_per_node = config_.machine.ranks_per_node;
    link_->attach(config_, world, map, *network_);
    control_->attach(world);
    world.sample_sites.enabled = config_.sampling;
    if (config_.critical_path)
      for (const auto& r : world.ranks())
        r->path = std::make_unique<mpilite::CritPath>();
    mpilite::set_auto_fold(config_.auto_shared_malloc);
    s.reason = world.run(main, argc, argv);
    s.setup_seconds = std::chrono::duration<double>(world.spawned_at() - start).count();
    mpilite::set_auto_fold(0);
    control_.reset();
    mpilite::merge_sample_summaries(s.sampling, world.sample_sites.summaries());
    if (hosts > 1 && s.reason == mpilite::RunEnd::Finished) {
      while (link_->idle()) {
      }
      if (link_->end() == mpilite::RunEnd::Deadlock) s.reason = mpilite::RunEnd::Deadlock;
    }
    s.exit_code = world.exit_code();
    s.message = world.stop_message();
    if (hosts > 1 &&
        (s.reason == mpilite::RunEnd::Abort || s.reason == mpilite::RunEnd::FatalError ||
         s.reason == mpilite::RunEnd::Limit)) {
      // The other host processes cannot finish without this one's ranks: end them all.
      std::fflush(stdout);
      std::fprintf(stderr, "mpisim: %s%s\n",
                   s.reason == mpilite::RunEnd::FatalError ? "MPI error: " : "", s.message.c_str());
      link_->abort_all(s.exit_code);
    }
    if (s.reason == mpilite::RunEnd::Deadlock) {
      s.blocked = describe_blocked_ranks(world);
      s.exit_code = 1;
    }
    for (const auto& r : world.ranks()) {
      // MPI_Finalize is owed for MPI_Init: a rank that used MPI through sessions alone owes none.
      const bool finalized = r->finalized || !r->initialized;
      s.ranks.push_back({r->id, r->clock, r->stats, r->exit_code, finalized, r->exited});
      if (r->path) {
        CriticalPath mine_end{r->id, r->clock, *r->path};
        if (!s.critical_path || mine_end.later_than(*s.critical_path))
          s.critical_path = std::move(mine_end);
      }
      if (s.reason == mpilite::RunEnd::Finished && s.exit_code == 0 && r->exit_code != 0)
        s.exit_code = r->exit_code;
    }
    mine.ranks = world.ranks().size();
    mine.context_switches = world.scheduler().context_switches();
    mine.local_messages = world.local_messages;
    s.context_switches = mine.context_switches;
    s.local_messages = world.local_messages;
    s.remote_messages = world.remote_messages;
    det_profile_receives = det_ ? det_->profile_receives() : 0;
    s.overflow_check = world.scheduler().stacks().describe();
    s.state_in_stack = world.states_in_stacks();
    if (replay) s.replay = *replay;
    arrivals_.reset();
    world_ = nullptr;
    mpilite::World::end(std::move(world_owner));
  }
  mine.idle_rounds = idle_rounds_;
  s.idle_rounds = idle_rounds_;
  mine.fold = mpilite::fold_stats();
  mine.peak_memory_kib = peak_memory_kib();
  s.peak_rss_kib = mine.peak_memory_kib;
  mine.sync = link_->stats();
  mine.sync.det_profile_receives = det_profile_receives;
  if (s.reason == mpilite::RunEnd::Finished || s.reason == mpilite::RunEnd::Deadlock)
    write_det_profile(hosts, s.reporting_host);
  if (hosts > 1)
    gather_hosts(s, mine);
  else
    s.host_stats.push_back(mine);
  for (const RankSummary& r : s.ranks)
    s.predicted = std::max(s.predicted, r.clock);
  if (observer_) {
    RecordedProgram program;
    for (const RankSummary& r : s.ranks) {
      program.widest_team = std::max(program.widest_team, r.stats.widest_team);
      program.clock_reads += r.stats.clock_reads;
    }
    s.timeline = observer_->finish(hosts > 1 ? link_.get() : nullptr, s.reporting_host, s.predicted,
                                   program, outcome_name(s.reason), s.output_errors);
    observer_.reset();
  }
  s.wall_seconds = std::chrono::duration<double>(mpilite::HostSteadyClock::now() - start).count();
  mpilite::set_fault_exit(nullptr);
  g_fault_link = nullptr;
  link_.reset(); // MPI_Finalize
  return s;
}

void Simulation::choose_calendar(RunSummary& s) {
  CalendarEpoch how = config_.epoch;
  if (how == CalendarEpoch::Auto)
    how = config_.cpu == CpuMode::Off ? CalendarEpoch::Fixed : CalendarEpoch::Launch;
  switch (how) {
  case CalendarEpoch::Date:
    s.calendar = "date";
    s.calendar_epoch_s = config_.epoch_date_s;
    return;
  case CalendarEpoch::Launch: {
    // The host clock, not the interposed time() a rank sees; host 0's instant for all.
    timespec now{};
    mpilite::host_clock_gettime(CLOCK_REALTIME, &now);
    std::int64_t seconds = now.tv_sec;
    std::vector<std::byte> bytes(sizeof seconds);
    std::memcpy(bytes.data(), &seconds, sizeof seconds);
    bytes = link_->broadcast(std::move(bytes));
    std::memcpy(&seconds, bytes.data(), sizeof seconds);
    s.calendar = "launch";
    s.calendar_epoch_s = seconds;
    return;
  }
  default:
    s.calendar = "fixed";
    s.calendar_epoch_s = mpilite::World::kFixedCalendarEpoch;
  }
}

void Simulation::check_same_map(const RankMap& map) {
  const std::uint64_t mine = map.fingerprint();
  std::vector<std::byte> bytes(sizeof mine);
  std::memcpy(bytes.data(), &mine, sizeof mine);
  for (const auto& theirs : link_->gather(bytes))
    if (theirs != bytes) {
      std::fprintf(stderr,
                   "mpisim: the host processes computed different rank maps from "
                   "MPISIM_MAP=%s: every host process must read the same file (a shared folder, "
                   "or the same copy on every node)\n",
                   config_.map.c_str());
      link_->abort_all(2);
    }
}

void Simulation::gather_hosts(RunSummary& s, HostSummary mine) {
  const auto all = link_->gather(encode_host_part(s, mine));
  if (all.empty()) return; // not host 0
  RunSummary merged = s;
  merged.ranks.clear();
  merged.blocked.clear();
  merged.sampling.clear();
  merged.replay.reset();
  merged.critical_path.reset();
  merged.peak_rss_kib = 0;
  merged.local_messages = merged.remote_messages = merged.context_switches = merged.idle_rounds = 0;
  for (const auto& bytes : all)
    decode_host_part(bytes, merged);
  std::sort(merged.ranks.begin(), merged.ranks.end(),
            [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
  if (merged.reason == mpilite::RunEnd::Finished && merged.exit_code == 0)
    for (const RankSummary& r : merged.ranks)
      if (r.exit_code != 0) {
        merged.exit_code = r.exit_code;
        break;
      }
  s = std::move(merged);
}

} // namespace mpisim
