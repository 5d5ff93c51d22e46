#include "host_sync.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace mpisim::protocols {
namespace {

using mpilite::kTimeInfinity;

// Idle steps without waking an LP after which NMP+CEP asks for a CEP round.
constexpr int kStallBeforeCep = 16;

struct NullBody {
  SimTime value;
  std::uint8_t wants; ///< the sender needs bounds from the receiver
};

struct ReportHeader {
  std::uint64_t epoch;
  SimTime k_min, k_second;
  std::int64_t k_arg, not_done;
  std::uint8_t needs_bound;
};

template <class T> void put(std::vector<std::byte>& out, const T& v) {
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}
template <class T> T get(const std::vector<std::byte>& in, std::size_t& at) {
  if (at + sizeof(T) > in.size()) throw std::runtime_error("truncated protocol frame");
  T v;
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

bool same(const Summary& a, const Summary& b) {
  return a.k_min == b.k_min && a.k_arg == b.k_arg && a.k_second == b.k_second &&
         a.not_done == b.not_done && a.needs_bound == b.needs_bound;
}

/// Folds a host's (smallest, its rank, second smallest) into a running global one.
void merge_min(SimTime& g, std::int64_t& arg, SimTime& g2, SimTime k, std::int64_t k_arg,
               SimTime k2) {
  if (k < g || (k == g && k_arg < arg)) {
    g2 = std::min(g, k2);
    g = k;
    arg = k_arg;
  } else {
    g2 = std::min(g2, k);
  }
}

} // namespace

HostSync::HostSync(Transport& transport, ProtocolKind kind, SimTime quantum)
    : t_(transport), kind_(kind), quantum_(quantum),
      channel_(static_cast<std::size_t>(transport.hosts()), 0),
      null_sent_(static_cast<std::size_t>(transport.hosts()), -1),
      peer_wants_(static_cast<std::size_t>(transport.hosts()), 0),
      wants_sent_(static_cast<std::size_t>(transport.hosts()), 0),
      sent_(static_cast<std::size_t>(transport.hosts()), 0),
      received_(static_cast<std::size_t>(transport.hosts()), 0),
      reports_(transport.host() == 0 ? static_cast<std::size_t>(transport.hosts()) : 0) {}

void HostSync::count_sent(int to) {
  ++sent_[static_cast<std::size_t>(to)];
  ++stats_.remote_sent;
}

void HostSync::count_received(int from) {
  ++received_[static_cast<std::size_t>(from)];
  ++stats_.remote_received;
}

SimTime HostSync::remote_bound(std::uint64_t hosts) const {
  switch (kind_) {
  case ProtocolKind::Quantum:
    return window_;
  case ProtocolKind::Cep:
    return floor_;
  case ProtocolKind::Nmp:
  case ProtocolKind::NmpCep: {
    SimTime b = kTimeInfinity;
    for (int h = 0; h < t_.hosts(); ++h)
      if (h != t_.host() && (h >= 64 || (hosts & host_bit(h))))
        b = std::min(b, channel_[static_cast<std::size_t>(h)]);
    return std::max(b, floor_);
  }
  }
  return 0;
}

void HostSync::on_frame(const Frame& f) {
  std::size_t at = 0;
  switch (f.kind) {
  case FrameKind::Null: {
    const auto n = get<NullBody>(f.body, at);
    auto& c = channel_[static_cast<std::size_t>(f.from)];
    c = std::max(c, n.value);
    peer_wants_[static_cast<std::size_t>(f.from)] = static_cast<char>(n.wants);
    break;
  }
  case FrameKind::Report: {
    Report r;
    const auto h = get<ReportHeader>(f.body, at);
    r.epoch = h.epoch;
    r.summary = {h.k_min, h.k_arg, h.k_second, h.not_done, h.needs_bound != 0};
    for (int i = 0; i < t_.hosts(); ++i)
      r.sent.push_back(get<std::uint64_t>(f.body, at));
    for (int i = 0; i < t_.hosts(); ++i)
      r.received.push_back(get<std::uint64_t>(f.body, at));
    coordinator_receive(f.from, r);
    break;
  }
  case FrameKind::Decision:
    pending_ = get<Decision>(f.body, at);
    break;
  default:
    throw std::logic_error("not a protocol frame");
  }
}

std::optional<Decision> HostSync::take_decision() {
  if (!pending_) return std::nullopt;
  Decision d = *pending_;
  pending_.reset();
  epoch_ = d.epoch;
  stall_ = 0;
  if (d.kind == Decision::Kind::Bound) {
    ++stats_.cep_rounds;
    floor_ = std::max(floor_, d.g);
  } else if (d.kind == Decision::Kind::Window) {
    ++stats_.quantum_barriers;
    window_ = std::max(window_, d.window);
  }
  return d;
}

bool HostSync::wants_report(const Summary& s) const {
  const bool passive = s.k_min >= kTimeInfinity;
  switch (kind_) {
  case ProtocolKind::Quantum:
  case ProtocolKind::Cep:
    return true;
  case ProtocolKind::Nmp:
    return passive; // only to detect the end of the run or a deadlock
  case ProtocolKind::NmpCep:
    return passive || (s.needs_bound && stall_ >= kStallBeforeCep);
  }
  return true;
}

void HostSync::on_idle(const Summary& s, const std::function<SimTime(int)>& eot_to,
                       const std::function<SimTime()>& min_clock) {
  ++stall_;
  if (kind_ == ProtocolKind::Nmp || kind_ == ProtocolKind::NmpCep) {
    // A host whose bound a peer needs needs all its own peers' bounds to compute it; otherwise
    // it asks only the hosts of its receives' potential sources.
    const bool asked =
        std::any_of(peer_wants_.begin(), peer_wants_.end(), [](char w) { return w != 0; });
    send_nulls(asked ? kAllHosts : s.wanted_hosts, eot_to, min_clock);
  }
  if (!wants_report(s)) return;
  Report r{epoch_, s, sent_, received_};
  if (last_report_ && last_report_->epoch == r.epoch && same(last_report_->summary, s) &&
      last_report_->sent == sent_ && last_report_->received == received_)
    return;
  last_report_ = r;
  ++stats_.reports;
  if (t_.host() == 0) {
    coordinator_receive(0, r);
    return;
  }
  std::vector<std::byte> body;
  put(body, ReportHeader{r.epoch, s.k_min, s.k_second, s.k_arg, s.not_done,
                         static_cast<std::uint8_t>(s.needs_bound)});
  for (auto v : sent_)
    put(body, v);
  for (auto v : received_)
    put(body, v);
  t_.send(0, FrameKind::Report, body.data(), body.size());
}

void HostSync::send_nulls(std::uint64_t wanted, const std::function<SimTime(int)>& eot_to,
                          const std::function<SimTime()>& min_clock) {
  bool any = false;
  SimTime lowest = -1;
  for (int h = 0; h < t_.hosts(); ++h) {
    if (h == t_.host()) continue;
    const auto i = static_cast<std::size_t>(h);
    const bool want = h >= 64 || (wanted & host_bit(h));
    const bool announce = wants_sent_[i] != static_cast<char>(want);
    if (!announce && !peer_wants_[i]) continue;
    const SimTime v = eot_to(h);
    if (!announce && v <= null_sent_[i]) continue;
    null_sent_[i] = std::max(null_sent_[i], v);
    wants_sent_[i] = static_cast<char>(want);
    const NullBody body{v, static_cast<std::uint8_t>(want)};
    t_.send(h, FrameKind::Null, &body, sizeof body);
    ++stats_.null_messages;
    if (lowest < 0) lowest = min_clock();
    if (v < kTimeInfinity && lowest < kTimeInfinity)
      stats_.lookahead_sum_s += mpilite::time_to_seconds(v - lowest);
    any = true;
  }
  if (any) ++stats_.null_rounds;
}

void HostSync::coordinator_receive(int from, const Report& r) {
  reports_[static_cast<std::size_t>(from)] = r;
  coordinator_decide();
}

void HostSync::coordinator_decide() {
  // A decision needs every host's report made after the last decision, all idle, and no data
  // frame in flight: per pair of hosts, what one counts as sent the other counts as received.
  for (const auto& r : reports_)
    if (!r || r->epoch != coordinator_epoch_) return;
  const auto n = reports_.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (reports_[i]->sent[j] != reports_[j]->received[i]) return;
  SimTime g = kTimeInfinity, g2 = kTimeInfinity;
  std::int64_t arg = -1, not_done = 0;
  for (const auto& r : reports_) {
    merge_min(g, arg, g2, r->summary.k_min, r->summary.k_arg, r->summary.k_second);
    not_done += r->summary.not_done;
  }
  Decision d;
  d.epoch = ++coordinator_epoch_;
  if (not_done == 0) {
    d.kind = Decision::Kind::Finish;
  } else if (g >= kTimeInfinity) {
    d.kind = Decision::Kind::Deadlock;
  } else if (kind_ == ProtocolKind::Quantum) {
    d.kind = Decision::Kind::Window;
    d.window = window_ + quantum_;
  } else {
    d.kind = Decision::Kind::Bound;
    d.g = g;
    d.g2 = g2;
    d.arg = arg;
  }
  broadcast(d);
}

void HostSync::broadcast(const Decision& d) {
  for (int h = 1; h < t_.hosts(); ++h)
    t_.send(h, FrameKind::Decision, &d, sizeof d);
  pending_ = d;
}

} // namespace mpisim::protocols
