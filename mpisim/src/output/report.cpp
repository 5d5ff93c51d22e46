#include "report.hpp"

#include <sched.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string_view>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "ascii_timeline.hpp"
#include "critical_path_report.hpp"
#include "network_model.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

using nlohmann::json;

json machine_json(const MachineParams& m) {
  return {{"name", m.name},
          {"send_overhead_ps", m.send_overhead},
          {"recv_overhead_ps", m.recv_overhead},
          {"latency_ps", m.latency},
          {"bandwidth_bytes_per_s", m.bandwidth},
          {"eager_limit_bytes", m.eager_limit},
          {"poll_overhead_ps", m.poll_overhead},
          {"cpu_scale", m.cpu_scale},
          {"cores_per_rank", m.cores_per_rank},
          {"fork_join_ps", m.fork_join},
          {"node_speed", format_node_speeds(m.node_speeds)},
          {"topology", format_topology(m.topology)},
          {"ranks_per_node", m.ranks_per_node},
          {"switching", switching_name(m.switching)},
          {"network", m.network},
          {"network_model", network_model_stamp(m.network)},
          {"io_latency_ps", m.io_latency},
          {"io_bandwidth_bytes_per_s", m.io_bandwidth},
          {"io_shared_bandwidth_bytes_per_s", m.io_shared_bandwidth}};
}

/// What an OpenMP team takes when the program does not say: OMP_NUM_THREADS (null when unset)
/// and, without it, the CPUs this process may run on (libgomp's default).
json openmp_default_json() {
  const char* threads = std::getenv("OMP_NUM_THREADS");
  cpu_set_t cpus;
  const int host_cpus = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 0;
  return {{"omp_num_threads", threads ? json(threads) : json(nullptr)}, {"host_cpus", host_cpus}};
}

json settings_json(const Config& c, const RunSummary& run) {
  json given = json::object();
  for (const auto& [name, value] : c.given)
    given[name] = value;
  return {
      {"ranks", c.ranks},
      {"hosts", run.hosts},
      {"map", c.map},
      {"map_used", run.map},
      {"machine", machine_json(c.machine)},
      {"protocol", c.protocol},
      {"det", c.det},
      {"lookahead", c.lookahead == Lookahead::Dynamic ? "dynamic" : "static"},
      {"cpu", c.cpu == CpuMode::Off ? "off" : "measured"},
      {"stack_bytes", c.stack_size},
      {"stack_default", !c.stack_given},
      {"stack_copy", c.copy_stacks},
      {"stack_copy_default", c.stack_copy == StackCopy::Auto},
      {"stack_copy_shared", c.shared_stacks},
      {"rank_state_in_stack", run.state_in_stack},
      {"rank_state", c.rank_state == RankState::Auto    ? "auto"
                     : c.rank_state == RankState::Stack ? "stack"
                                                        : "heap"},
      {"auto_shared_malloc_bytes", c.auto_shared_malloc},
      {"sampling", c.sampling},
      {"sampling_report", c.sampling_report},
      {"overflow_check", run.overflow_check},
      {"calendar", run.calendar},
      {"calendar_epoch", fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                                     fmt::gmtime(static_cast<std::time_t>(run.calendar_epoch_s)))},
      {"openmp_default", openmp_default_json()},
      {"variables", given}};
}

/// min / mean / max of one per-rank column, with the ranks where min and max occur.
template <class Get> json column_summary(const std::vector<RankSummary>& ranks, Get get) {
  if (ranks.empty()) return json::object();
  auto [lo, hi] = std::minmax_element(
      ranks.begin(), ranks.end(), [&](const auto& a, const auto& b) { return get(a) < get(b); });
  long double sum = 0;
  for (const auto& r : ranks)
    sum += static_cast<long double>(get(r));
  return {{"min", get(*lo)},
          {"min_rank", lo->rank},
          {"mean", static_cast<double>(sum / static_cast<long double>(ranks.size()))},
          {"max", get(*hi)},
          {"max_rank", hi->rank}};
}

json hosts_json(const RunSummary& run) {
  json hosts = json::array();
  for (const HostSummary& h : run.host_stats) {
    const auto& y = h.sync;
    hosts.push_back(
        {{"host", h.host},
         {"ranks", h.ranks},
         {"null_messages", y.null_messages},
         {"null_rounds", y.null_rounds},
         {"cep_rounds", y.cep_rounds},
         {"quantum_barriers", y.quantum_barriers},
         {"protocol_rounds", y.rounds()},
         {"reports", y.reports},
         {"det_profile_receives", y.det_profile_receives},
         {"lookahead_mean_s",
          y.null_messages ? y.lookahead_sum_s / static_cast<double>(y.null_messages) : 0.0},
         {"blocked_wall_s", y.blocked_wall_s},
         {"local_messages", h.local_messages},
         {"remote_messages_sent", y.remote_sent},
         {"remote_messages_received", y.remote_received},
         {"context_switches", h.context_switches},
         {"idle_rounds", h.idle_rounds},
         {"peak_memory_kib", h.peak_memory_kib},
         {"folded_blocks", h.fold.blocks},
         {"folded_sites", h.fold.sites},
         {"folded_peak_bytes", h.fold.peak_bytes},
         {"folded_physical_bytes", h.fold.physical_bytes}});
  }
  return hosts;
}

json sampling_json(const RunSummary& run) {
  json sites = json::array();
  for (const mpilite::SampleSiteSummary& x : run.sampling)
    sites.push_back({{"site", x.site},
                     {"kind", x.global ? "global" : "local"},
                     {"iterations", x.iterations},
                     {"threshold", x.threshold},
                     {"samples", x.stats.count},
                     {"skipped", x.stats.skipped},
                     {"mean_ps", x.stats.mean()},
                     {"stddev_ps", x.stats.stddev()}});
  return sites;
}

/// mpisim-replay: its timing-dependent outcomes against the record's (replay_checks.hpp).
json replay_json(const ReplayChecks& c) {
  json first = nullptr;
  if (c.first_rank >= 0)
    first = {{"rank", c.first_rank}, {"time_ps", c.first_time}, {"operation", c.first}};
  return {{"diverged", c.differing > 0},  {"checked", c.checked},
          {"differing", c.differing},     {"unchecked", c.unchecked},
          {"clock_reads", c.clock_reads}, {"first_difference", first}};
}

} // namespace

const char* outcome_name(mpilite::RunEnd end) {
  switch (end) {
  case mpilite::RunEnd::Finished:
    return "finished";
  case mpilite::RunEnd::Deadlock:
    return "deadlock";
  case mpilite::RunEnd::Abort:
    return "abort";
  case mpilite::RunEnd::FatalError:
    return "error";
  case mpilite::RunEnd::Limit:
    return "limit";
  case mpilite::RunEnd::None:
  case mpilite::RunEnd::Blocked:
  case mpilite::RunEnd::Stopped:
    break; // the world turns these into one of the above before a report
  }
  return "?";
}

namespace {

/// Where rank `r`'s time went as shares of the predicted time: compute, communicate, wait,
/// finished.
std::array<double, 4> utilization(const RankSummary& r, SimTime predicted) {
  const auto share = [predicted](SimTime t) {
    return predicted > 0 ? static_cast<double>(t) / static_cast<double>(predicted) : 0.0;
  };
  return {share(r.stats.compute), share(r.stats.comm), share(r.stats.wait),
          share(predicted - r.clock)};
}

json utilization_json(const std::array<double, 4>& u) {
  return {{"compute", u[0]}, {"communicate", u[1]}, {"wait", u[2]}, {"finished", u[3]}};
}

/// What the text report says of the ranks as a whole: their mean utilization, the ranks that
/// failed or skipped MPI_Finalize (the first kRanksNamed of each), their OpenMP regions.
json rank_totals(const RunSummary& run) {
  std::array<double, 4> use{};
  json failed = json::array(), unfinalized = json::array();
  std::size_t n_failed = 0, n_unfinalized = 0;
  std::uint64_t regions = 0;
  int widest = 0;
  for (const RankSummary& r : run.ranks) {
    const std::array<double, 4> u = utilization(r, run.predicted);
    for (std::size_t i = 0; i < u.size(); ++i)
      use[i] += u[i];
    if (r.exit_code != 0 && n_failed++ < kRanksNamed)
      failed.push_back({{"rank", r.rank}, {"exit_code", r.exit_code}, {"ended_by_exit", r.exited}});
    if (!r.finalized && n_unfinalized++ < kRanksNamed) unfinalized.push_back(r.rank);
    regions += r.stats.parallel_regions;
    widest = std::max(widest, r.stats.widest_team);
  }
  const double n = std::max<double>(1, static_cast<double>(run.ranks.size()));
  for (double& x : use)
    x /= n;
  return {{"utilization_mean", utilization_json(use)},
          {"failed", failed},
          {"failed_count", n_failed},
          {"unfinalized", unfinalized},
          {"unfinalized_count", n_unfinalized},
          {"parallel_regions", regions},
          {"widest_team", widest}};
}

json rank_json(const RankSummary& r, SimTime predicted) {
  return {{"rank", r.rank},
          {"time_ps", r.clock},
          {"compute_ps", r.stats.compute},
          {"comm_ps", r.stats.comm},
          {"wait_ps", r.stats.wait},
          {"msgs_sent", r.stats.msgs_sent},
          {"bytes_sent", r.stats.bytes_sent},
          {"msgs_received", r.stats.msgs_received},
          {"bytes_received", r.stats.bytes_received},
          {"mpi_calls", r.stats.mpi_calls},
          {"parallel_regions", r.stats.parallel_regions},
          {"widest_team", r.stats.widest_team},
          {"exit_code", r.exit_code},
          {"ended_by_exit", r.exited},
          {"finalized", r.finalized},
          {"utilization", utilization_json(utilization(r, predicted))}};
}

json ranks_json(const RunSummary& run) {
  json ranks = json::array();
  for (const RankSummary& r : run.ranks)
    ranks.push_back(rank_json(r, run.predicted));
  return ranks;
}

} // namespace

json build_report(const Config& config, const RunSummary& run) {
  std::uint64_t messages = 0, bytes = 0;
  for (const RankSummary& r : run.ranks) {
    messages += r.stats.msgs_sent;
    bytes += r.stats.bytes_sent;
  }
  // A million ranks' objects cost a gigabyte and seconds; the text shows them only when few.
  const bool per_rank = run.ranks.size() <= static_cast<std::size_t>(kTimelineMaxRanks);
  const auto& rs = run.ranks;
  json summary = {
      {"time_ps", column_summary(rs, [](const RankSummary& r) { return r.clock; })},
      {"compute_ps", column_summary(rs, [](const RankSummary& r) { return r.stats.compute; })},
      {"comm_ps", column_summary(rs, [](const RankSummary& r) { return r.stats.comm; })},
      {"wait_ps", column_summary(rs, [](const RankSummary& r) { return r.stats.wait; })},
      {"msgs_sent", column_summary(rs, [](const RankSummary& r) { return r.stats.msgs_sent; })},
      {"totals", rank_totals(run)}};
  const double predicted_s = mpilite::time_to_seconds(run.predicted);
  return {{"mpisim_report", 1},
          {"settings", settings_json(config, run)},
          {"outcome", outcome_name(run.reason)},
          {"exit_code", run.exit_code},
          {"message", run.message},
          {"blocked_ranks", run.blocked},
          {"timeline", run.timeline},
          {"predicted_time_ps", run.predicted},
          {"predicted_time_s", predicted_s},
          {"ranks", per_rank ? ranks_json(run) : json(nullptr)},
          {"rank_summary", summary},
          {"hosts", hosts_json(run)},
          {"sampling", sampling_json(run)},
          {"replay", run.replay ? replay_json(*run.replay) : json(nullptr)},
          {"critical_path", critical_path_json(run.critical_path)},
          {"messages",
           {{"count", messages},
            {"bytes", bytes},
            {"local", run.local_messages},
            {"remote", run.remote_messages}}},
          {"simulator",
           {{"wall_time_s", run.wall_seconds},
            {"setup_time_s", run.setup_seconds},
            {"peak_memory_kib", run.peak_rss_kib},
            {"context_switches", run.context_switches},
            {"idle_rounds", run.idle_rounds},
            {"slowdown", predicted_s > 0 ? json(run.wall_seconds / predicted_s) : json(nullptr)}}}};
}

void write_report(std::ostream& out, const json& report, const RunSummary& run) {
  json shell = report;
  shell["ranks"] = nullptr;
  const std::string text = shell.dump(2);
  // Keys of nested objects are indented further: this is the top level's.
  constexpr std::string_view key = "\n  \"ranks\": ";
  const std::size_t at = text.find(key) + key.size();
  out.write(text.data(), static_cast<std::streamsize>(at));
  out << '[';
  for (std::size_t i = 0; i < run.ranks.size(); ++i)
    out << (i ? ",\n    " : "\n    ") << rank_json(run.ranks[i], run.predicted).dump();
  out << (run.ranks.empty() ? "]" : "\n  ]");
  const std::size_t rest = at + std::string_view("null").size();
  out.write(text.data() + rest, static_cast<std::streamsize>(text.size() - rest));
}

namespace {

std::string t(const json& ps) {
  return format_time(ps.get<SimTime>());
}

/// The ranks' OpenMP parallel regions, and whether their teams had a core per thread.
void render_openmp(std::string& out, const json& r) {
  const json& totals = r["rank_summary"]["totals"];
  const auto regions = totals["parallel_regions"].get<std::uint64_t>();
  const int widest = totals["widest_team"].get<int>();
  if (regions == 0) return;
  const json& m = r["settings"]["machine"];
  const int cores = m["cores_per_rank"].get<int>();
  out += fmt::format("OpenMP: {} parallel regions, teams of up to {} thread(s) on {} core(s) per "
                     "rank, fork-join {}\n",
                     regions, widest, cores, t(m["fork_join_ps"]));
  if (widest > cores)
    out += fmt::format("note: teams of {} threads are larger than cores_per_rank={}: their "
                       "threads share the cores, so a region takes at least its work over {} "
                       "core(s) (set --cores-per-rank to the target's)\n",
                       widest, cores, cores);
  // Teams the size of this host's CPUs, from OMP_NUM_THREADS unset: on the target each process
  // would start as many threads as it has cores, and a region would take a fraction of this.
  const json& d = r["settings"].value("openmp_default", json::object());
  if (widest < cores && d.contains("omp_num_threads") && d["omp_num_threads"].is_null() &&
      d.value("host_cpus", 0) == widest)
    out += fmt::format("note: OMP_NUM_THREADS is unset, so the teams took this host's default of "
                       "{} threads; on the target each process would start one per core "
                       "(cores_per_rank={}) and its regions would take a fraction of the time "
                       "predicted here: set OMP_NUM_THREADS to what the target's job sets, e.g. "
                       "OMP_NUM_THREADS={}\n",
                       widest, cores, cores);
}

/// What the settings line says of a stacks' mode: `on` or `off` and why (`why_on`, `why_off`
/// when it was not the default), nothing when it is off by default.
std::string stack_mode_text(bool is_on, bool by_default, std::string_view on, std::string_view off,
                            std::string_view why_on, std::string_view why_off) {
  if (!is_on) return by_default ? "" : fmt::format(", {} ({})", off, why_off);
  return fmt::format(", {} ({})", on,
                     by_default ? "the default for this many ranks per host process" : why_on);
}

std::string stack_modes_text(const json& s) {
  const std::string rank_state = s.value("rank_state", "auto");
  const bool shared = s.value("stack_copy_shared", false);
  return stack_mode_text(s.value("stack_copy", false), s.value("stack_copy_default", true),
                         shared ? "copied into shared stacks" : "copied out while blocked",
                         "not copied out",
                         shared ? "MPISIM_STACK_COPY=shared" : "MPISIM_STACK_COPY=on",
                         "MPISIM_STACK_COPY=off") +
         // Asked for, the states still stay on the heap where a guard page covers a block of
         // stacks (mpilite::World).
         stack_mode_text(s.value("rank_state_in_stack", false), rank_state == "auto",
                         "each rank's state in its top page", "ranks' state on the heap",
                         "MPISIM_RANK_STATE=stack",
                         rank_state == "heap" ? "MPISIM_RANK_STATE=heap"
                                              : "a guard page covers a block of stacks");
}

void render_settings(std::string& out, const json& s) {
  const json& m = s["machine"];
  // The ideal network uses none of the machine's figures: the line must not seem to say it does.
  std::string network = m["network_model"].get<std::string>();
  if (network.starts_with("ideal"))
    network += ", which uses none of the figures before: no overheads or transfer time, 1 ps "
               "latency";
  out += fmt::format(
      "settings: {} ranks on {} host process(es); machine {} (send overhead {}, "
      "receive overhead {}, latency {}, bandwidth {}, eager limit {}, topology {}, {} rank(s) per "
      "node, {} switching, network {}); protocol {}, DET {}, lookahead {}; CPU {} x{}; stacks {}{} "
      "({}){}; calendar from {} ({})\n",
      s["ranks"].get<int>(), s["hosts"].get<int>(), m["name"].get<std::string>(),
      t(m["send_overhead_ps"]), t(m["recv_overhead_ps"]), t(m["latency_ps"]),
      format_bandwidth(m["bandwidth_bytes_per_s"].get<double>()),
      format_size(m["eager_limit_bytes"].get<std::uint64_t>()), m["topology"].get<std::string>(),
      m["ranks_per_node"].get<int>(), m["switching"].get<std::string>(), network,
      s["protocol"].get<std::string>(), s["det"].get<bool>() ? "on" : "off",
      s["lookahead"].get<std::string>(), s["cpu"].get<std::string>(), m["cpu_scale"].get<double>(),
      format_size(s["stack_bytes"].get<std::uint64_t>()),
      s.value("stack_default", false) ? " (the default for this many ranks per host process)" : "",
      s["overflow_check"].get<std::string>(), stack_modes_text(s),
      s["calendar_epoch"].get<std::string>(), s["calendar"].get<std::string>());
  if (!s["variables"].empty()) {
    out += "variables:";
    for (const auto& [name, value] : s["variables"].items())
      out += fmt::format(" {}={}", name, value.get<std::string>());
    out += "\n";
  }
}

void render_ranks(std::string& out, const json& report) {
  const json& ranks = report["ranks"];
  if (ranks.is_array() && ranks.size() <= kRanksShownInFull) {
    out += fmt::format("{:>6} {:>14} {:>14} {:>14} {:>14} {:>9} {:>12}\n", "rank", "time",
                       "compute", "comm", "wait", "msgs sent", "bytes sent");
    for (const json& r : ranks)
      out += fmt::format("{:>6} {:>14} {:>14} {:>14} {:>14} {:>9} {:>12}\n", r["rank"].get<int>(),
                         t(r["time_ps"]), t(r["compute_ps"]), t(r["comm_ps"]), t(r["wait_ps"]),
                         r["msgs_sent"].get<std::uint64_t>(), r["bytes_sent"].get<std::uint64_t>());
    return;
  }
  out +=
      fmt::format("{:>10} {:>22} {:>14} {:>22}\n", "per rank", "min (rank)", "mean", "max (rank)");
  for (const char* col : {"time_ps", "compute_ps", "comm_ps", "wait_ps"}) {
    const json& c = report["rank_summary"][col];
    const std::string name(col, std::strlen(col) - 3);
    out += fmt::format("{:>10} {:>22} {:>14} {:>22}\n", name,
                       fmt::format("{} ({})", t(c["min"]), c["min_rank"].get<int>()),
                       format_time(static_cast<SimTime>(c["mean"].get<double>())),
                       fmt::format("{} ({})", t(c["max"]), c["max_rank"].get<int>()));
  }
}

/// Where the ranks' time went, as shares of the predicted time: per rank when the report lists
/// the ranks (up to kTimelineMaxRanks, or all of them for MPISIM_REPORT), and the mean.
void render_utilization(std::string& out, const json& report) {
  const json& ranks = report["ranks"];
  if (report["settings"]["ranks"].get<int>() == 0) return;
  const auto line = [&out](const std::string& who, const json& u) {
    out += fmt::format("{:>10} {:>8.1f}% {:>11.1f}% {:>8.1f}% {:>9.1f}%\n", who,
                       100 * u["compute"].get<double>(), 100 * u["communicate"].get<double>(),
                       100 * u["wait"].get<double>(), 100 * u["finished"].get<double>());
  };
  out += fmt::format("utilization (share of the predicted time):\n{:>10} {:>9} {:>12} {:>9} "
                     "{:>10}\n",
                     "rank", "compute", "communicate", "wait", "finished");
  if (ranks.is_array() && ranks.size() <= static_cast<std::size_t>(kTimelineMaxRanks))
    for (const json& r : ranks)
      line(std::to_string(r["rank"].get<int>()), r["utilization"]);
  line("mean", report["rank_summary"]["totals"]["utilization_mean"]);
}

/// Protocol statistics per host process (only when there are several).
void render_hosts(std::string& out, const json& hosts) {
  if (hosts.size() < 2) return;
  out += fmt::format("{:>5} {:>7} {:>9} {:>8} {:>8} {:>9} {:>8} {:>11} {:>11} {:>12} {:>10}\n",
                     "host", "ranks", "rounds R", "null msg", "CEP", "barriers", "reports",
                     "remote out", "remote in", "lookahead", "blocked");
  for (const json& h : hosts)
    out += fmt::format(
        "{:>5} {:>7} {:>9} {:>8} {:>8} {:>9} {:>8} {:>11} {:>11} {:>12} {:>9.3f}s\n",
        h["host"].get<int>(), h["ranks"].get<std::uint64_t>(),
        h["protocol_rounds"].get<std::uint64_t>(), h["null_messages"].get<std::uint64_t>(),
        h["cep_rounds"].get<std::uint64_t>(), h["quantum_barriers"].get<std::uint64_t>(),
        h["reports"].get<std::uint64_t>(), h["remote_messages_sent"].get<std::uint64_t>(),
        h["remote_messages_received"].get<std::uint64_t>(),
        format_time(static_cast<SimTime>(h["lookahead_mean_s"].get<double>() * 1e12)),
        h["blocked_wall_s"].get<double>());
}

/// Ranks that failed or skipped MPI_Finalize, which a user would want to know about.
void render_exits(std::string& out, const json& totals) {
  const auto more = [](std::size_t count) { return count > kRanksNamed ? " ..." : ""; };
  if (const auto n = totals["failed_count"].get<std::size_t>()) {
    std::string failed;
    for (const json& r : totals["failed"])
      failed += fmt::format(" {} ({}{})", r["rank"].get<int>(),
                            r["ended_by_exit"].get<bool>() ? "exit " : "returned ",
                            r["exit_code"].get<int>());
    out += fmt::format("ranks that ended with a non-zero code ({}):{}{}\n", n, failed, more(n));
  }
  if (const auto n = totals["unfinalized_count"].get<std::size_t>()) {
    std::string unfinalized;
    for (const json& r : totals["unfinalized"])
      unfinalized += fmt::format(" {}", r.get<int>());
    out += fmt::format("ranks that did not call MPI_Finalize ({}):{}{}\n", n, unfinalized, more(n));
  }
}

/// Memory folding per host process, when any block was folded.
void render_folding(std::string& out, const json& hosts) {
  std::uint64_t blocks = 0, sites = 0, peak = 0, physical = 0;
  for (const json& h : hosts) {
    blocks += h.value("folded_blocks", std::uint64_t{0});
    sites = std::max(sites, h.value("folded_sites", std::uint64_t{0}));
    peak += h.value("folded_peak_bytes", std::uint64_t{0});
    physical += h.value("folded_physical_bytes", std::uint64_t{0});
  }
  if (!blocks) return;
  out += fmt::format("folded memory: {} blocks from {} call sites, at most {} of blocks backed by "
                     "{} of pages (peak memory below is the proportional set size)\n",
                     blocks, sites, format_size(peak), format_size(physical));
}

/// mpisim-replay: whether its wildcard matches, test outcomes and nodes were those of the record.
void render_replay(std::string& out, const json& report) {
  const auto c = report.find("replay");
  if (c == report.end() || c->is_null() || ((*c)["checked"] == 0 && (*c)["unchecked"] == 0)) return;
  const auto checked = (*c)["checked"].get<std::uint64_t>();
  const auto differing = (*c)["differing"].get<std::uint64_t>();
  const auto unchecked = (*c)["unchecked"].get<std::uint64_t>();
  if (differing)
    out +=
        fmt::format("replay: DIVERGED: {} of {} wildcard matches, test outcomes and nodes differ "
                    "from the record; the prediction is approximate (see the warning below)",
                    differing, checked);
  else
    out += fmt::format("replay: {} wildcard matches, test outcomes and nodes as recorded", checked);
  if (unchecked) out += fmt::format("; {} not in the record, not checked", unchecked);
  out += "\n";
}

/// MPISIM_SAMPLE_* sites (MPISIM_SAMPLING_REPORT=on).
void render_sampling(std::string& out, const json& report) {
  const auto sites = report.find("sampling");
  if (sites == report.end() || sites->empty() ||
      !report["settings"].value("sampling_report", false))
    return;
  out += fmt::format("sampled sites{}:\n{:>40} {:>6} {:>9} {:>9} {:>14} {:>14}\n",
                     report["settings"].value("sampling", true) ? "" : " (MPISIM_SAMPLING=off)",
                     "site", "kind", "samples", "skipped", "mean", "stddev");
  for (const json& x : *sites)
    out += fmt::format("{:>40} {:>6} {:>9} {:>9} {:>14} {:>14}\n", x["site"].get<std::string>(),
                       x["kind"].get<std::string>(), x["samples"].get<std::uint64_t>(),
                       x["skipped"].get<std::uint64_t>(), t(x["mean_ps"]),
                       format_time(static_cast<SimTime>(x["stddev_ps"].get<double>())));
}

} // namespace

std::string render_report(const json& r) {
  std::string out = "==== mpisim report ====\n";
  render_settings(out, r["settings"]);
  const std::string outcome = r["outcome"];
  if (outcome == "deadlock") {
    out += "DEADLOCK: no rank can proceed; the target program is deadlocked:\n";
    // At 100 000 ranks a line each would bury the report: the first ones show the pattern, and
    // the JSON report has them all.
    constexpr std::size_t kShown = 32;
    const json& blocked = r["blocked_ranks"];
    for (std::size_t i = 0; i < blocked.size() && i < kShown; ++i)
      out += "  " + blocked[i].get<std::string>() + "\n";
    if (blocked.size() > kShown)
      out += fmt::format("  ... and {} more ranks blocked (MPISIM_REPORT=report.json lists every "
                         "one under blocked_ranks)\n",
                         blocked.size() - kShown);
  } else if (outcome != "finished") {
    out += fmt::format("{}: {}\n",
                       outcome == "abort"   ? "ABORTED"
                       : outcome == "limit" ? "STOPPED"
                                            : "MPI ERROR",
                       r["message"].get<std::string>());
  }
  out += fmt::format("predicted time: {:.12f} s ({})\n", r["predicted_time_s"].get<double>(),
                     t(r["predicted_time_ps"]));
  render_ranks(out, r);
  render_utilization(out, r);
  for (const json& line : r["timeline"])
    out += line.get<std::string>() + "\n";
  render_exits(out, r["rank_summary"]["totals"]);
  if (r["hosts"].size() > 1)
    out += fmt::format("map: {}\n", r["settings"]["map_used"].get<std::string>());
  render_hosts(out, r["hosts"]);
  render_folding(out, r["hosts"]);
  render_sampling(out, r);
  render_openmp(out, r);
  render_replay(out, r);
  render_critical_path(out, r);
  std::uint64_t by_profile = 0;
  for (const json& h : r["hosts"])
    by_profile += h["det_profile_receives"].get<std::uint64_t>();
  if (by_profile)
    out += fmt::format("DET profile: {} wildcard receives completed without a time bound\n",
                       by_profile);
  const json& m = r["messages"];
  out += fmt::format("messages: {} ({} bytes); {} within host processes, {} between them\n",
                     m["count"].get<std::uint64_t>(), m["bytes"].get<std::uint64_t>(),
                     m["local"].get<std::uint64_t>(), m["remote"].get<std::uint64_t>());
  const json& s = r["simulator"];
  out += fmt::format("simulator: wall time {:.3f} s (set-up {:.3f} s), peak memory {:.1f} MiB, {} "
                     "context switches, {} idle rounds",
                     s["wall_time_s"].get<double>(), s.value("setup_time_s", 0.0),
                     s["peak_memory_kib"].get<double>() / 1024.0,
                     s["context_switches"].get<std::uint64_t>(),
                     s["idle_rounds"].get<std::uint64_t>());
  if (!s["slowdown"].is_null())
    out += fmt::format(", slowdown {:.3g} (wall / predicted)", s["slowdown"].get<double>());
  out += "\n";
  return out;
}

} // namespace mpisim
