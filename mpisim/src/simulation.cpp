#include "simulation.hpp"

#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "deadlock.hpp"
#include "local_bound.hpp"
#include "summary_codec.hpp"

namespace mpisim {
namespace {

std::int64_t thread_cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

} // namespace

Simulation::Simulation(Config config)
    : config_(std::move(config)), network_(config_.machine, config_.ranks),
      contention_(config_.machine.network == NetworkMode::Contention
                      ? std::make_unique<Contention>(network_)
                      : nullptr) {}

void Simulation::on_send(mpilite::Message& m, SimTime injected, std::size_t data_bytes) {
  if (contention_) contention_->on_send(m, injected, data_bytes);
  if (observer_) observer_->sent(m, injected - network_.send_overhead());
}

void Simulation::on_receive(const mpilite::Message& m, int dst, SimTime t_match) {
  if (observer_) observer_->received(m, dst, t_match);
}

bool Simulation::defer_data(const mpilite::DataTransfer& d) {
  return contention_ && contention_->defer_data(d);
}

SimTime Simulation::send_overhead(int, int, std::size_t) const {
  return network_.send_overhead();
}
SimTime Simulation::recv_overhead(int, int, std::size_t) const {
  return network_.recv_overhead();
}
SimTime Simulation::transfer(int src, int dst, std::size_t bytes) const {
  return network_.transfer(src, dst, bytes);
}
std::size_t Simulation::eager_limit() const {
  return network_.eager_limit();
}
SimTime Simulation::poll_overhead() const {
  return network_.poll_overhead();
}
SimTime Simulation::min_latency() const {
  return network_.min_latency();
}

void Simulation::enter_mpi(mpilite::Rank& rank) {
  const SimTime before = rank.clock;
  if (config_.cpu != CpuMode::Off) {
    const std::int64_t now = thread_cpu_ns();
    const double ps =
        static_cast<double>(now - rank.cpu_mark_ns) * 1000.0 * config_.machine.cpu_scale;
    rank.spend_compute(static_cast<SimTime>(ps));
  }
  if (observer_) observer_->enter(rank, before);
}

void Simulation::leave_mpi(mpilite::Rank& rank) {
  if (observer_) observer_->leave(rank);
  if (config_.cpu == CpuMode::Off) return;
  rank.cpu_mark_ns = thread_cpu_ns();
}

bool Simulation::is_local(int world_rank) const {
  return world_ && world_->local(world_rank);
}

void Simulation::send_remote(mpilite::Message* m) {
  link_->send_message(m);
}

void Simulation::reply_remote(const mpilite::Reply& reply) {
  link_->send_reply(reply);
}

bool Simulation::idle() {
  ++idle_rounds_;
  if (link_) return link_->idle();
  SimTime held = mpilite::kTimeInfinity; // lower bound on arrivals the network still holds
  if (contention_ && contention_->settle(*world_, held)) return true;
  return advance_local_bounds(*world_, network_.min_latency(), held);
}

RunSummary Simulation::run(const mpilite::World::Main& main, int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  if (contention_) contention_ = std::make_unique<Contention>(network_); // nothing left in flight
  if (protocols::Transport::launched_as_several_processes()) {
    int ac = argc;
    char** av = argv;
    link_ = std::make_unique<HostLink>(config_, &ac, &av);
  }
  const int hosts = link_ ? link_->hosts() : 1;
  const int host = link_ ? link_->host() : 0;
  const RankMap map(config_.map, config_.ranks, hosts);
  RunSummary s;
  s.hosts = hosts;
  s.reporting_host = host == 0;
  HostSummary mine;
  mine.host = host;
  {
    mpilite::World world(*this, config_.ranks, map.ranks_of(host), config_.stack_size);
    world_ = &world;
    observer_ = Observer::make(config_, host);
    if (observer_) world.op_log = observer_->op_log();
    if (link_) link_->attach(world, map, network_.min_latency());
    s.reason = world.run(main, argc, argv);
    if (link_ && s.reason == mpilite::EndReason::Finished) {
      while (link_->idle()) {
      }
      if (link_->end() == HostLink::End::Deadlock) s.reason = mpilite::EndReason::Deadlock;
    }
    s.exit_code = world.exit_code();
    s.message = world.stop_message();
    if (link_ &&
        (s.reason == mpilite::EndReason::Abort || s.reason == mpilite::EndReason::FatalError)) {
      // The other host processes cannot finish without this one's ranks: end them all.
      std::fflush(stdout);
      std::fprintf(stderr, "mpisim: %s%s\n",
                   s.reason == mpilite::EndReason::Abort ? "" : "MPI error: ", s.message.c_str());
      link_->abort_all(s.exit_code);
    }
    if (s.reason == mpilite::EndReason::Deadlock) {
      s.blocked = describe_blocked_ranks(world);
      s.exit_code = 1;
    }
    for (const auto& r : world.ranks()) {
      s.ranks.push_back({r->id, r->clock, r->stats, r->exit_code, r->finalized, r->exited});
      if (s.reason == mpilite::EndReason::Finished && s.exit_code == 0 && r->exit_code != 0)
        s.exit_code = r->exit_code;
    }
    mine.ranks = world.ranks().size();
    mine.context_switches = world.scheduler().context_switches();
    mine.local_messages = world.local_messages;
    s.context_switches = mine.context_switches;
    s.local_messages = world.local_messages;
    s.remote_messages = world.remote_messages;
    s.overflow_check = world.scheduler().stacks().describe();
    world_ = nullptr;
  }
  mine.idle_rounds = idle_rounds_;
  s.idle_rounds = idle_rounds_;
  if (link_) {
    mine.sync = link_->stats();
    gather_hosts(s, mine);
  } else {
    s.host_stats.push_back(mine);
  }
  for (const RankSummary& r : s.ranks)
    s.predicted = std::max(s.predicted, r.clock);
  if (observer_) {
    static constexpr const char* kOutcomes[] = {"finished", "deadlock", "abort", "error"};
    s.timeline = observer_->finish(link_.get(), s.reporting_host, s.predicted,
                                   kOutcomes[static_cast<int>(s.reason)]);
    observer_.reset();
  }
  s.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.peak_rss_kib = peak_rss_kib();
  link_.reset(); // MPI_Finalize
  return s;
}

void Simulation::gather_hosts(RunSummary& s, HostSummary mine) {
  const auto all = link_->gather(encode_host_part(s, mine));
  if (all.empty()) return; // not host 0
  RunSummary merged = s;
  merged.ranks.clear();
  merged.blocked.clear();
  merged.local_messages = merged.remote_messages = merged.context_switches = merged.idle_rounds = 0;
  for (const auto& bytes : all)
    decode_host_part(bytes, merged);
  std::sort(merged.ranks.begin(), merged.ranks.end(),
            [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
  if (merged.reason == mpilite::EndReason::Finished && merged.exit_code == 0)
    for (const RankSummary& r : merged.ranks)
      if (r.exit_code != 0) {
        merged.exit_code = r.exit_code;
        break;
      }
  s = std::move(merged);
}

} // namespace mpisim
