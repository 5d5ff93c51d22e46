#include "replay.hpp"

#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "op_log.hpp"
#include "rank_replay.hpp"
#include "stand_in_files.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

/// The format of meta.json and rank-*.ops that observer.cpp writes; this replay also reads the
/// older ones (1 has no outcome lines, 2 none of the operations 3 added, 3 none of those 4
/// added, 4 no `node` lines, 5 no one-sided communication, 6 no MPI-IO): each is a subset.
constexpr int kRecordVersion = mpilite::kRecordFormat;
constexpr int kOldestRecordVersion = 1;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

using replaying::RankReplay;

RecordMeta read_record_meta(const std::string& dir) {
  const std::string path = dir + "/meta.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{} is not a record's meta.json: {}", path, e.what()));
  } catch (const std::runtime_error&) {
    throw std::runtime_error(fmt::format(
        "{} has no meta.json: record a run first with MPISIM_RECORD={} (or mpisimrun --record)",
        dir, dir));
  }
  const auto bad = [&](const std::string& problem) {
    return std::runtime_error(
        fmt::format("{}: {}; is it a record made by MPISIM_RECORD?", path, problem));
  };
  if (!j.is_object()) throw bad("not a JSON object");
  const auto version = j.find("mpisim_record");
  if (version == j.end() || !version->is_number_integer())
    throw bad("no format version (mpisim_record)");
  if (*version < kOldestRecordVersion || *version > kRecordVersion)
    throw bad(fmt::format("format version {} (this mpisim-replay reads versions {} to {})",
                          version->dump(), kOldestRecordVersion, kRecordVersion));
  RecordMeta m;
  const auto ranks = j.find("ranks");
  if (ranks == j.end() || !ranks->is_number_integer() || *ranks <= 0 || *ranks > INT_MAX)
    throw bad("ranks must be a positive integer");
  m.ranks = ranks->get<int>();
  const auto scale = j.find("cpu_scale");
  if (scale == j.end() || !scale->is_number() || !(scale->get<double>() > 0) ||
      !std::isfinite(scale->get<double>()))
    throw bad("cpu_scale must be a number > 0");
  m.cpu_scale = scale->get<double>();
  if (const auto team = j.find("widest_team"); team != j.end()) {
    const auto cores = j.find("cores_per_rank");
    const auto fork_join = j.find("fork_join_ps");
    if (!team->is_number_unsigned() || *team > INT_MAX || cores == j.end() ||
        !cores->is_number_unsigned() || *cores == 0 || *cores > INT_MAX || fork_join == j.end() ||
        !fork_join->is_number_unsigned())
      throw bad("widest_team, cores_per_rank and fork_join_ps must be integers >= 0");
    m.widest_team = team->get<int>();
    m.cores_per_rank = cores->get<int>();
    m.fork_join = fork_join->get<SimTime>();
  }
  if (const auto peak = j.find("peak_memory_kib"); peak != j.end()) {
    const auto hosts = j.find("hosts");
    if (!peak->is_number_unsigned() || hosts == j.end() || !hosts->is_number_unsigned() ||
        *hosts == 0 || *peak > (std::uint64_t{1} << 40) || *hosts > INT_MAX)
      throw bad("peak_memory_kib and hosts must be positive integers");
    // Each host process held its ranks' buffers: twice its peak, and room for small records.
    m.buffer_bound = 2 * peak->get<std::uint64_t>() * 1024 * hosts->get<std::uint64_t>() +
                     (std::uint64_t{64} << 20);
  }
  if (const auto reads = j.find("clock_reads"); reads != j.end()) {
    if (!reads->is_number_unsigned()) throw bad("clock_reads must be an integer >= 0");
    m.clock_reads = reads->get<std::uint64_t>();
  }
  for (const char* key : {"node_speed", "libc_time"})
    if (j.contains(key) && !j[key].is_string()) throw bad(fmt::format("{} must be a string", key));
  m.node_speed = j.value("node_speed", "");
  m.libc_time = j.value("libc_time", "");
  if (const auto per_node = j.find("ranks_per_node"); per_node != j.end()) {
    if (!per_node->is_number_unsigned() || *per_node == 0 || *per_node > INT_MAX)
      throw bad("ranks_per_node must be a positive integer");
    m.ranks_per_node = per_node->get<int>();
  }
  for (const char* key : {"machine", "outcome"})
    if (!j.contains(key) || !j[key].is_string()) throw bad(fmt::format("{} must be a string", key));
  m.machine = j["machine"].get<std::string>();
  m.outcome = j["outcome"].get<std::string>();
  // Every rank has its file: a count the directory cannot back would only make memory grow.
  std::size_t files = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    files += name.starts_with("rank-") && name.ends_with(".ops") ? 1 : 0;
  }
  if (files < static_cast<std::size_t>(m.ranks))
    throw bad(
        fmt::format("it says {} ranks, but {} holds {} rank-*.ops files", m.ranks, dir, files));
  return m;
}

std::string openmp_mismatch(const RecordMeta& meta, const MachineParams& machine) {
  if (meta.widest_team < 2) return "";
  // A team no larger than either machine's cores takes as long as its busiest thread on both.
  const bool cores_differ =
      machine.cores_per_rank != meta.cores_per_rank &&
      meta.widest_team > std::min(machine.cores_per_rank, meta.cores_per_rank);
  if (!cores_differ && machine.fork_join == meta.fork_join) return "";
  return fmt::format("its OpenMP regions (teams of up to {} threads) were charged for "
                     "cores_per_rank={} and fork_join={}, and this machine has {} and {}: the "
                     "record keeps each region's time, not its threads' work. Replay it with "
                     "--cores-per-rank {} --fork-join {}ps, or record the run again on this "
                     "machine",
                     meta.widest_team, meta.cores_per_rank, format_time(meta.fork_join),
                     machine.cores_per_rank, format_time(machine.fork_join), meta.cores_per_rank,
                     meta.fork_join);
}

std::string compute_mismatch(const RecordMeta& meta, const MachineParams& machine,
                             bool simulated_libc_time) {
  // The record holds each stretch of compute as charged on its rank's node: other speeds, or
  // the ranks on other nodes of non-uniform speeds, would need the measured time back.
  const std::string speeds = format_node_speeds(machine.node_speeds);
  if (!meta.node_speed.empty() && speeds != meta.node_speed)
    return fmt::format("its compute was charged with node speeds {}, and this machine has {}: "
                       "the replay cannot charge it again at other speeds. Run the program live "
                       "with these speeds (mpisimrun --node-speed ...), or replay with "
                       "--node-speed \"{}\"",
                       meta.node_speed, speeds, meta.node_speed);
  if (!machine.node_speeds.empty() && meta.ranks_per_node > 0 &&
      machine.ranks_per_node != meta.ranks_per_node)
    return fmt::format("its nodes run at speeds {} with {} ranks per node, and this machine puts "
                       "{} on a node: ranks would move to nodes of other speeds, which the "
                       "record's compute does not follow. Run the program live, or replay with "
                       "--ranks-per-node {}",
                       speeds, meta.ranks_per_node, machine.ranks_per_node, meta.ranks_per_node);
  const char* libc_time = libc_time_name(simulated_libc_time);
  if (!meta.libc_time.empty() && meta.libc_time != libc_time)
    return fmt::format("it was recorded with MPISIM_LIBC_TIME={}, and this replay asks for {}: "
                       "the record holds the program's sleeps as it ran them. Run the program "
                       "live with --libc-time {}",
                       meta.libc_time, libc_time, libc_time);
  return "";
}

mpilite::World::Main replay_main(std::string dir, double compute_scale, std::uint64_t buffer_bound,
                                 std::shared_ptr<ReplayChecks> checks,
                                 std::shared_ptr<const std::vector<SimTime>> balanced) {
  if (!checks) checks = std::make_shared<ReplayChecks>();
  // The record's files are the recorded run's: the replay must leave them alone.
  mpilite::use_stand_in_files();
  // Each rank's replay outlives the rank: a record that ends with receives still posted (a
  // truncated file) must not have them written into freed buffers, and a rank that ends the run
  // (MPI_Abort) never unwinds its fiber, which would leak what lived on it.
  struct RankFile {
    std::string path;
    std::string text;
    std::unique_ptr<RankReplay> replay;
  };
  auto kept = std::make_shared<std::deque<RankFile>>();
  return [dir = std::move(dir), compute_scale, buffer_bound, kept, checks, balanced](int, char**) {
    RankFile& f = kept->emplace_back();
    // Which origins each passive target served, and when, is checked against the record.
    mpilite::World::get().track_served = true;
    const int rank = mpilite::World::get().self().id;
    f.path = fmt::format("{}/rank-{}.ops", dir, rank);
    bool readable = true;
    try {
      f.text = read_file(f.path);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "mpisim-replay: %s (was the run recorded completely?)\n", e.what());
      readable = false;
    }
    if (!readable) MPI_Abort(MPI_COMM_WORLD, 2); // outside the handler: it never returns
    f.replay = std::make_unique<RankReplay>(compute_scale, buffer_bound, rank, f.text, *checks);
    f.replay->balance(balanced.get());
    std::size_t line_no = 0;
    for (std::size_t at = 0; at < f.text.size();) {
      const std::size_t end = std::min(f.text.find('\n', at), f.text.size());
      ++line_no;
      bool bad = false;
      try {
        f.replay->line(std::string_view(f.text).substr(at, end - at));
      } catch (const std::exception& e) { // BadRecord, or what the standard library refused
        std::fprintf(stderr, "mpisim-replay: %s:%zu: %s\n", f.path.c_str(), line_no, e.what());
        bad = true;
      }
      if (bad) MPI_Abort(MPI_COMM_WORLD, 2);
      at = end + 1;
    }
    f.replay->settle();
    return 0;
  };
}

} // namespace mpisim
