// Global rounds over quiescent snapshots: a host that wants one reports its state to the
// coordinator (host 0); once every host has reported since the last decision, all are idle and no
// data frame is in flight (per pair of hosts, what one counts as sent the other counts as
// received), the coordinator decides and every host applies the same decision: the end of the
// run, a deadlock of the target program, or else what the protocol decides from the snapshot
// (SyncProtocol::decide: CEP's global bound, the quantum protocol's next window).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "frames.hpp"
#include "sync_stats.hpp"
#include "transport.hpp"

namespace mpisim::protocols {

/// The host that gathers the reports and decides.
constexpr int kCoordinator = 0;

class GlobalRounds {
public:
  /// `decide`: the protocol's decision from a complete snapshot where LPs are unfinished and some
  /// can act, given the snapshot's global bound (SyncProtocol::decide).
  GlobalRounds(Transport& t, SyncStats& stats, std::function<void(Decision&)> decide);

  void count_sent(int to);
  void count_received(int from);

  /// Reports `s` unless the same snapshot was reported since the last decision.
  void report(const Summary& s);
  /// A report from `from`; returns whether that host has no unfinished LP any more (it will
  /// never send again: frames from a host arrive in order, the report after its last). Then the
  /// coordinator's own report waits for its next idle pass, which sees that host's bounds gone.
  bool on_report(int from, std::span<const std::byte> body);
  void on_decision(std::span<const std::byte> body);

  /// A decision that arrived and has not been applied yet.
  std::optional<Decision> take();

private:
  void receive(int from, const ReportFrame& r);
  void decide();

  Transport& t_;
  SyncStats& stats_;
  std::function<void(Decision&)> decide_;
  std::vector<std::uint64_t> sent_, received_;
  std::uint64_t epoch_ = 0; ///< decisions seen
  std::optional<ReportFrame> last_report_;
  std::optional<Decision> pending_;
  // Coordinator (host 0).
  std::vector<std::optional<ReportFrame>> reports_;
  std::uint64_t coordinator_epoch_ = 0;
};

} // namespace mpisim::protocols
