#include "global_rounds.hpp"

#include <algorithm>
#include <utility>

namespace mpisim::protocols {
namespace {

/// Folds a host's (smallest, its LP, second smallest) into a running global one.
void merge_min(SimTime& g, std::int64_t& arg, SimTime& g2, const Summary& s) {
  if (s.k_min < g || (s.k_min == g && s.k_arg < arg)) {
    g2 = std::min(g, s.k_second);
    g = s.k_min;
    arg = s.k_arg;
  } else {
    g2 = std::min(g2, s.k_min);
  }
}

} // namespace

GlobalRounds::GlobalRounds(Transport& t, SyncStats& stats, std::function<void(Decision&)> decide)
    : t_(t), stats_(stats), decide_(std::move(decide)),
      sent_(static_cast<std::size_t>(t.hosts()), 0),
      received_(static_cast<std::size_t>(t.hosts()), 0),
      reports_(t.host() == kCoordinator ? static_cast<std::size_t>(t.hosts()) : 0) {}

void GlobalRounds::count_sent(int to) {
  ++sent_[static_cast<std::size_t>(to)];
  ++stats_.remote_sent;
}

void GlobalRounds::count_received(int from) {
  ++received_[static_cast<std::size_t>(from)];
  ++stats_.remote_received;
}

void GlobalRounds::report(const Summary& s) {
  ReportFrame r{epoch_, s, sent_, received_};
  if (last_report_ && *last_report_ == r) return;
  last_report_ = r;
  ++stats_.reports;
  if (t_.host() == kCoordinator)
    receive(kCoordinator, r);
  else
    t_.send(kCoordinator, FrameKind::Report, encode(r));
}

bool GlobalRounds::on_report(int from, std::span<const std::byte> body) {
  const ReportFrame r = decode_report(body, t_.hosts());
  const bool finished = r.summary.not_done == 0;
  // A host that finished frees what the coordinator's LPs waited for from it (the caller's
  // on_finished): the coordinator's own report no longer says where they stand, and a round
  // decided on it would be one too many. The coordinator reports again when idle.
  if (finished) {
    reports_[kCoordinator].reset();
    last_report_.reset();
  }
  receive(from, r);
  return finished;
}

void GlobalRounds::on_decision(std::span<const std::byte> body) {
  pending_ = decode_decision(body);
}

std::optional<Decision> GlobalRounds::take() {
  if (!pending_) return std::nullopt;
  const Decision d = *pending_;
  pending_.reset();
  epoch_ = d.epoch;
  if (d.kind == Decision::Kind::Bound) ++stats_.cep_rounds;
  if (d.kind == Decision::Kind::Window) ++stats_.quantum_barriers;
  return d;
}

void GlobalRounds::receive(int from, const ReportFrame& r) {
  reports_[static_cast<std::size_t>(from)] = r;
  decide();
}

void GlobalRounds::decide() {
  for (const auto& r : reports_)
    if (!r || r->epoch != coordinator_epoch_) return;
  const auto n = reports_.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (reports_[i]->sent[j] != reports_[j]->received[i]) return;
  SimTime g = kTimeInfinity, g2 = kTimeInfinity;
  std::int64_t arg = -1, not_done = 0;
  for (const auto& r : reports_) {
    merge_min(g, arg, g2, r->summary);
    not_done += r->summary.not_done;
  }
  Decision d;
  d.epoch = ++coordinator_epoch_;
  // One host alone reports only when its own exact bounds let no LP proceed: nothing else will.
  if (not_done == 0) {
    d.kind = Decision::Kind::Finish;
  } else if (g >= kTimeInfinity || n == 1) {
    d.kind = Decision::Kind::Deadlock;
  } else {
    d.kind = Decision::Kind::Bound;
    d.g = g;
    d.g2 = g2;
    d.arg = arg;
    for (const auto& r : reports_)
      d.k_of_host.push_back(r->summary.k_min);
    decide_(d);
    // The one-host finding over every host (Synchronizer::idle): one LP can act, and no other
    // until it causes something.
    d.alone = g2 >= kTimeInfinity && arg >= 0 ? arg : -1;
    for (const auto& r : reports_)
      d.activity_of_host.push_back(r->summary.activity);
  }
  const auto body = encode(d);
  for (int h = 0; h < t_.hosts(); ++h)
    if (h != kCoordinator) t_.send(h, FrameKind::Decision, body);
  pending_ = d;
}

} // namespace mpisim::protocols
