#include "observer.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "host_link.hpp"
#include "machine_file.hpp"
#include "message.hpp"
#include "network_model.hpp"
#include "replay.hpp"
#include "units.hpp"
#include "wire.hpp"

namespace mpisim {
namespace {

bool wants_timeline(const Config& config) {
  return config.timeline && config.ranks <= kTimelineMaxRanks;
}

std::string rank_file(const std::string& dir, int rank) {
  return fmt::format("{}/rank-{}.ops", dir, rank);
}

/// One host's part of what host 0 merges: three texts, each with its length in front.
std::vector<std::byte> pack_texts(const std::vector<std::string>& texts) {
  std::vector<std::byte> out;
  protocols::WireWriter w(out);
  w.u64(texts.size());
  for (const std::string& t : texts)
    w.text(t);
  return out;
}

std::vector<std::string> unpack_texts(const std::vector<std::byte>& bytes) {
  protocols::WireReader r(bytes, "observation summary");
  std::vector<std::string> texts(r.u64());
  for (std::string& t : texts)
    t = r.text();
  r.finish();
  return texts;
}

} // namespace

std::unique_ptr<Observer> Observer::make(const Config& config, int host) {
  if (config.trace_path.empty() && config.comm_matrix_path.empty() && config.record_path.empty() &&
      !wants_timeline(config))
    return nullptr;
  return std::make_unique<Observer>(config, host);
}

Observer::Observer(const Config& config, int host)
    : config_(config), entries_(static_cast<std::size_t>(config.ranks)) {
  if (!config.trace_path.empty())
    trace_ = std::make_unique<ChromeTrace>(ChromeTrace::part_path(config.trace_path, host));
  if (!config.comm_matrix_path.empty()) matrix_.emplace();
  if (wants_timeline(config)) timeline_.emplace(config.ranks);
  if (!config.record_path.empty()) {
    std::filesystem::create_directories(config.record_path);
    // Each rank's file is started afresh by its first write, then appended to.
    auto started = std::make_shared<std::unordered_set<int>>();
    op_log_ = std::make_unique<mpilite::OpLog>(
        [dir = config.record_path, started](int rank, const std::string& text) {
          const bool first = started->insert(rank).second;
          std::ofstream out(rank_file(dir, rank), first ? std::ios::trunc : std::ios::app);
          out << text;
          if (!out)
            throw std::runtime_error(
                fmt::format("MPISIM_RECORD: cannot write {}", rank_file(dir, rank)));
        });
  }
}

void Observer::enter(mpilite::Rank& rank, SimTime before) {
  if (rank.clock > before) {
    if (trace_) trace_->slice(rank.id, "compute", "compute", before, rank.clock, "");
    if (timeline_) timeline_->add(rank.id, before, rank.clock, Activity::Compute);
    if (op_log_) op_log_->compute(rank.id, rank.clock - before, true);
  }
  Entry& e = entries_[static_cast<std::size_t>(rank.id)];
  e.start = rank.clock;
  e.stats = rank.stats;
}

void Observer::leave(mpilite::Rank& rank) {
  const Entry& e = entries_[static_cast<std::size_t>(rank.id)];
  const mpilite::RankStats& s = rank.stats;
  const SimTime wait = s.wait - e.stats.wait;
  const SimTime comm = s.comm - e.stats.comm;
  const SimTime compute = s.compute - e.stats.compute;
  if (timeline_) {
    // Within a call the order of waiting and overheads is not kept: waiting comes first, as in
    // a receive (wait for the message, then its overhead).
    timeline_->add(rank.id, e.start, e.start + wait, Activity::Wait);
    timeline_->add(rank.id, e.start + wait, e.start + wait + comm, Activity::Communicate);
    timeline_->add(rank.id, e.start + wait + comm, rank.clock, Activity::Compute);
  }
  if (trace_) {
    const char* name = rank.call.name ? rank.call.name : "MPI";
    const bool declared_compute = std::strcmp(name, "MPISIM_Compute") == 0;
    const std::uint64_t sent = s.msgs_sent - e.stats.msgs_sent;
    const std::uint64_t got = s.msgs_received - e.stats.msgs_received;
    if (declared_compute) {
      if (rank.clock > e.start)
        trace_->slice(rank.id, "compute", "compute", e.start, rank.clock,
                      "\"call\":\"MPISIM_Compute\"");
    } else if (rank.clock > e.start || sent || got) {
      std::string args;
      if (rank.call.has_peer)
        args = fmt::format("\"peer\":{},\"tag\":{},\"comm\":\"{:#x}\",", rank.call.peer,
                           rank.call.tag, static_cast<unsigned>(rank.call.comm));
      else if (rank.call.comm != MPI_COMM_NULL)
        args = fmt::format("\"comm\":\"{:#x}\",", static_cast<unsigned>(rank.call.comm));
      args +=
          fmt::format("\"bytes_sent\":{},\"bytes_received\":{},\"msgs_sent\":{},"
                      "\"msgs_received\":{},\"wait_ps\":{},\"comm_ps\":{},\"compute_ps\":{}",
                      s.bytes_sent - e.stats.bytes_sent, s.bytes_received - e.stats.bytes_received,
                      sent, got, wait, comm, compute);
      trace_->slice(rank.id, name, "mpi", e.start, rank.clock, args);
    }
  }
}

void Observer::sent(const mpilite::Message& m, SimTime at) {
  if (matrix_) matrix_->add(m.src, m.dst, m.bytes);
  if (trace_) trace_->message_sent(m.src, m.dst, m.seq, m.bytes, m.tag, at);
}

void Observer::received(const mpilite::Message& m, int dst, SimTime t_match) {
  if (trace_) trace_->message_received(m.src, dst, m.seq, m.bytes, m.tag, t_match);
}

void Observer::write_record_meta(const std::string& outcome, int hosts,
                                 const RecordedProgram& program) const {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const nlohmann::json meta = {{"mpisim_record", mpilite::kRecordFormat},
                               {"hosts", hosts},
                               {"peak_memory_kib", usage.ru_maxrss},
                               {"ranks", config_.ranks},
                               {"machine", config_.machine.name},
                               {"network_model", network_model_stamp(config_.machine.network)},
                               {"cpu_scale", config_.machine.cpu_scale},
                               {"widest_team", program.widest_team},
                               {"clock_reads", program.clock_reads},
                               {"cores_per_rank", config_.machine.cores_per_rank},
                               {"fork_join_ps", config_.machine.fork_join},
                               {"node_speed", format_node_speeds(config_.machine.node_speeds)},
                               {"ranks_per_node", config_.machine.ranks_per_node},
                               {"libc_time", libc_time_name(config_.simulated_libc_time)},
                               {"cpu", config_.cpu == CpuMode::Off ? "off" : "measured"},
                               {"outcome", outcome}};
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream out(config_.record_path + "/" + name);
    out << text;
    if (!out)
      throw std::runtime_error(
          fmt::format("MPISIM_RECORD: cannot write {}/{}", config_.record_path, name));
  };
  write(kRecordedMachineFile,
        format_machine_file(config_.machine, fmt::format("the machine of the run recorded here "
                                                         "({} ranks); mpisim-replay without "
                                                         "--machine replays on it",
                                                         config_.ranks)));
  write("meta.json", meta.dump(2) + "\n");
}

namespace {

/// Runs `write`; a failure becomes a line of `errors` instead of ending the others' writing.
template <class Write> void keep_going(std::vector<std::string>& errors, Write write) {
  try {
    write();
  } catch (const std::exception& e) {
    errors.emplace_back(e.what());
  }
}

} // namespace

std::vector<std::string> Observer::finish(HostLink* link, bool reporting_host, SimTime predicted,
                                          const RecordedProgram& program,
                                          const std::string& outcome,
                                          std::vector<std::string>& errors) {
  if (op_log_) {
    keep_going(errors, [&] { op_log_->flush_all(); });
    if (reporting_host)
      keep_going(errors, [&] { write_record_meta(outcome, link ? link->hosts() : 1, program); });
  }
  if (!trace_ && !matrix_ && !timeline_) return {}; // the same on every host: from the config
  bool trace_closed = false; // a part that failed is not merged into a trace that looks whole
  if (trace_)
    keep_going(errors, [&] {
      trace_->close();
      trace_closed = true;
    });
  // The gather also tells host 0 that every host's trace part is complete.
  std::vector<std::string> mine = {std::string(), matrix_ ? matrix_->encode() : std::string(),
                                   timeline_ ? timeline_->encode() : std::string()};
  std::vector<std::vector<std::string>> parts;
  if (link) {
    for (const auto& bytes : link->gather(pack_texts(mine)))
      parts.push_back(unpack_texts(bytes));
  } else {
    parts.push_back(std::move(mine));
  }
  if (!reporting_host) return {};
  if (trace_closed)
    keep_going(errors, [&] {
      ChromeTrace::write(config_.trace_path, static_cast<int>(parts.size()), config_.ranks);
    });
  if (matrix_)
    keep_going(errors, [&] {
      CommMatrix all;
      for (const auto& p : parts)
        all.merge(p[1]);
      all.write_csv(config_.comm_matrix_path, config_.ranks);
    });
  if (!timeline_) return {};
  AsciiTimeline all(config_.ranks);
  for (const auto& p : parts)
    all.merge(p[2]);
  return all.render(predicted);
}

} // namespace mpisim
