#include "summary_codec.hpp"

#include <algorithm>

#include "wire.hpp"

namespace mpisim {
namespace {

using protocols::WireReader;
using protocols::WireWriter;

void put(WireWriter& w, const protocols::SyncStats& y) {
  w.u64(y.null_messages);
  w.u64(y.null_rounds);
  w.u64(y.reports);
  w.u64(y.cep_rounds);
  w.u64(y.quantum_barriers);
  w.u64(y.remote_sent);
  w.u64(y.remote_received);
  w.u64(y.det_profile_receives);
  w.f64(y.lookahead_sum_s);
  w.f64(y.blocked_wall_s);
}

protocols::SyncStats get_sync(WireReader& r) {
  protocols::SyncStats y;
  y.null_messages = r.u64();
  y.null_rounds = r.u64();
  y.reports = r.u64();
  y.cep_rounds = r.u64();
  y.quantum_barriers = r.u64();
  y.remote_sent = r.u64();
  y.remote_received = r.u64();
  y.det_profile_receives = r.u64();
  y.lookahead_sum_s = r.f64();
  y.blocked_wall_s = r.f64();
  return y;
}

void put(WireWriter& w, const RankSummary& x) {
  w.i32(x.rank);
  w.i64(x.clock);
  const mpilite::RankStats& s = x.stats;
  w.i64(s.compute);
  w.i64(s.comm);
  w.i64(s.wait);
  w.u64(s.msgs_sent);
  w.u64(s.bytes_sent);
  w.u64(s.msgs_received);
  w.u64(s.bytes_received);
  w.u64(s.mpi_calls);
  w.u64(s.parallel_regions);
  w.i32(s.widest_team);
  w.u64(s.clock_reads);
  w.i32(x.exit_code);
  w.boolean(x.finalized);
  w.boolean(x.exited);
}

RankSummary get_rank(WireReader& r) {
  RankSummary x;
  x.rank = r.i32();
  x.clock = r.i64();
  mpilite::RankStats& s = x.stats;
  s.compute = r.i64();
  s.comm = r.i64();
  s.wait = r.i64();
  s.msgs_sent = r.u64();
  s.bytes_sent = r.u64();
  s.msgs_received = r.u64();
  s.bytes_received = r.u64();
  s.mpi_calls = r.u64();
  s.parallel_regions = r.u64();
  s.widest_team = r.i32();
  s.clock_reads = static_cast<std::uint32_t>(r.u64());
  x.exit_code = r.i32();
  x.finalized = r.boolean();
  x.exited = r.boolean();
  return x;
}

void put(WireWriter& w, const mpilite::SampleSiteSummary& x) {
  w.text(x.site);
  w.boolean(x.global);
  w.i32(x.iterations);
  w.f64(x.threshold);
  w.u64(x.stats.count);
  w.u64(x.stats.skipped);
  w.i64(x.stats.sum);
  w.u64(static_cast<std::uint64_t>(x.stats.sum_squares >> 64));
  w.u64(static_cast<std::uint64_t>(x.stats.sum_squares));
  w.i64(x.stats.first);
  w.u64(x.stats.warmups);
  w.i64(x.stats.warmup_sum);
  w.u64(static_cast<std::uint64_t>(x.stats.warmup_squares >> 64));
  w.u64(static_cast<std::uint64_t>(x.stats.warmup_squares));
}

mpilite::SampleSiteSummary get_site(WireReader& r) {
  mpilite::SampleSiteSummary x;
  x.site = r.text();
  x.global = r.boolean();
  x.iterations = r.i32();
  x.threshold = r.f64();
  x.stats.count = r.u64();
  x.stats.skipped = r.u64();
  x.stats.sum = r.i64();
  const auto high = static_cast<unsigned __int128>(r.u64());
  x.stats.sum_squares = high << 64 | r.u64();
  x.stats.first = r.i64();
  x.stats.warmups = r.u64();
  x.stats.warmup_sum = r.i64();
  const auto warm_high = static_cast<unsigned __int128>(r.u64());
  x.stats.warmup_squares = warm_high << 64 | r.u64();
  return x;
}

void put(WireWriter& w, const std::optional<ReplayChecks>& x) {
  w.boolean(x.has_value());
  if (!x) return;
  w.u64(x->checked);
  w.u64(x->differing);
  w.u64(x->unchecked);
  w.i32(x->first_rank);
  w.i64(x->first_time);
  w.text(x->first);
}

/// Merges a host's checks into `into` (which has them when any host has).
void get_replay(WireReader& r, std::optional<ReplayChecks>& into) {
  if (!r.boolean()) return;
  ReplayChecks x;
  x.checked = r.u64();
  x.differing = r.u64();
  x.unchecked = r.u64();
  x.first_rank = r.i32();
  x.first_time = r.i64();
  x.first = r.text();
  if (!into) into.emplace();
  into->merge(x);
}

void put(WireWriter& w, const std::optional<CriticalPath>& x) {
  w.boolean(x.has_value());
  if (!x) return;
  w.i32(x->rank);
  w.i64(x->clock);
  std::vector<std::byte> path;
  x->path.encode(path);
  w.u64(path.size());
  w.bytes(path.data(), path.size());
}

/// Keeps the host's path in `into` if it ends later than the one there.
void get_critical_path(WireReader& r, std::optional<CriticalPath>& into) {
  if (!r.boolean()) return;
  CriticalPath x;
  x.rank = r.i32();
  x.clock = r.i64();
  x.path = mpilite::CritPath::decode(r.bytes(r.u64()), "a run summary");
  if (!into || x.later_than(*into)) into = std::move(x);
}

} // namespace

std::vector<std::byte> encode_host_part(const RunSummary& s, const HostSummary& host) {
  std::vector<std::byte> out;
  WireWriter w(out);
  w.i32(host.host);
  w.u64(host.ranks);
  put(w, host.sync);
  w.u64(host.local_messages);
  w.u64(host.context_switches);
  w.u64(host.idle_rounds);
  w.i64(host.peak_memory_kib);
  w.u64(host.fold.blocks);
  w.u64(host.fold.sites);
  w.u64(host.fold.peak_bytes);
  w.u64(host.fold.physical_bytes);
  w.u64(s.sampling.size());
  for (const auto& site : s.sampling)
    put(w, site);
  w.u64(s.ranks.size());
  for (const RankSummary& r : s.ranks)
    put(w, r);
  w.u64(s.blocked.size());
  for (const std::string& line : s.blocked)
    w.text(line);
  w.u64(s.remote_messages);
  put(w, s.replay);
  put(w, s.critical_path);
  return out;
}

void decode_host_part(const std::vector<std::byte>& bytes, RunSummary& into) {
  WireReader r(bytes, "run summary");
  HostSummary host;
  host.host = r.i32();
  host.ranks = r.u64();
  host.sync = get_sync(r);
  host.local_messages = r.u64();
  host.context_switches = r.u64();
  host.idle_rounds = r.u64();
  host.peak_memory_kib = static_cast<long>(r.i64());
  host.fold.blocks = r.u64();
  host.fold.sites = r.u64();
  host.fold.peak_bytes = r.u64();
  host.fold.physical_bytes = r.u64();
  std::vector<mpilite::SampleSiteSummary> sites(r.u64());
  for (auto& site : sites)
    site = get_site(r);
  mpilite::merge_sample_summaries(into.sampling, sites);
  into.peak_rss_kib = std::max(into.peak_rss_kib, host.peak_memory_kib);
  into.host_stats.push_back(host);
  into.local_messages += host.local_messages;
  into.context_switches += host.context_switches;
  into.idle_rounds += host.idle_rounds;
  const auto n = r.u64();
  for (std::uint64_t i = 0; i < n; ++i)
    into.ranks.push_back(get_rank(r));
  const auto blocked = r.u64();
  for (std::uint64_t i = 0; i < blocked; ++i)
    into.blocked.push_back(r.text());
  into.remote_messages += r.u64();
  get_replay(r, into.replay);
  get_critical_path(r, into.critical_path);
  r.finish();
}

} // namespace mpisim
