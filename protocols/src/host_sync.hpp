// Conservative synchronization between host processes: null messages (NMP), conditional-event
// rounds (CEP) decided by a coordinator from quiescent snapshots, their composite, and the quantum
// baseline. Works on time bounds and counts only; it knows nothing of MPI.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim_time.hpp"
#include "transport.hpp"

namespace mpisim::protocols {

using mpilite::SimTime;

enum class ProtocolKind { Quantum, Nmp, Cep, NmpCep };

/// A host's state when none of its LPs can run.
struct Summary {
  /// Smallest K over the host's LPs (earliest message an LP could produce without new input),
  /// the rank it belongs to, and the second smallest K.
  SimTime k_min = mpilite::kTimeInfinity;
  std::int64_t k_arg = -1;
  SimTime k_second = mpilite::kTimeInfinity;
  std::int64_t not_done = 0; ///< LPs of this host that have not finished
  bool needs_bound = false;  ///< some LP waits for a time bound to decide
  /// The hosts whose bounds those LPs need: the hosts of their receives' potential sources.
  std::uint64_t wanted_hosts = 0;
};

inline constexpr std::uint64_t kAllHosts = ~std::uint64_t{0};
inline std::uint64_t host_bit(int h) {
  return h < 64 ? std::uint64_t{1} << h : 0;
}

/// What the coordinator concluded from a quiescent snapshot of all hosts.
struct Decision {
  enum class Kind : std::uint8_t { Bound, Window, Deadlock, Finish };
  Kind kind = Kind::Bound;
  std::uint64_t epoch = 0;
  SimTime g = 0, g2 = 0; ///< Bound: global smallest and second smallest K
  std::int64_t arg = -1; ///< Bound: the rank of the smallest
  SimTime window = 0;    ///< Window (quantum): every future message has ts >= window
};

/// Protocol statistics of one host.
struct SyncStats {
  std::uint64_t null_messages = 0;    ///< null messages sent
  std::uint64_t null_rounds = 0;      ///< times this host sent a batch of null messages
  std::uint64_t reports = 0;          ///< snapshots of this host sent to the coordinator
  std::uint64_t cep_rounds = 0;       ///< bound decisions applied
  std::uint64_t quantum_barriers = 0; ///< window decisions applied
  std::uint64_t remote_sent = 0;      ///< data frames sent to other hosts
  std::uint64_t remote_received = 0;  ///< data frames received from other hosts
  double lookahead_sum_s = 0;         ///< sum over null messages of (value - host's smallest clock)
  double blocked_wall_s = 0;          ///< wall time spent idle waiting for other hosts
  /// The paper's rounds of protocol messages R: null-message batches plus global rounds.
  std::uint64_t rounds() const { return null_rounds + cep_rounds + quantum_barriers; }
};

class HostSync {
public:
  HostSync(Transport& transport, ProtocolKind kind, SimTime quantum);

  /// Handles a protocol frame (Null, Report, Decision). Data and Reply frames are the caller's,
  /// who must call count_received for each.
  void on_frame(const Frame& f);
  void count_sent(int to);
  /// The lower bound this host last promised `host` in a null message (-1: none).
  SimTime promised(int host) const { return null_sent_[static_cast<std::size_t>(host)]; }
  void count_received(int from);

  /// Every future data frame from another host has a recv timestamp >= this.
  SimTime remote_bound() const { return remote_bound(kAllHosts); }
  /// The same for the frames of the hosts in `hosts` (bit h for host h; hosts beyond 63 are
  /// always included).
  SimTime remote_bound(std::uint64_t hosts) const;
  /// The last quantum window end (quantum protocol).
  SimTime window() const { return window_; }

  /// Called while the host is idle with its current state; `eot_to(peer)` is a lower bound on
  /// the recv timestamp of any message this host may still send to `peer`; `min_clock()` the
  /// smallest clock of its unfinished LPs (for the lookahead statistic). Sends null messages
  /// and reports as the protocol wants.
  void on_idle(const Summary& s, const std::function<SimTime(int)>& eot_to,
               const std::function<SimTime()>& min_clock);
  /// An LP of this host could proceed: null messages have not stalled.
  void note_progress() { stall_ = 0; }

  /// A decision that arrived and has not been applied yet.
  std::optional<Decision> take_decision();

  const SyncStats& stats() const { return stats_; }
  SyncStats& stats() { return stats_; }
  ProtocolKind kind() const { return kind_; }

private:
  struct Report {
    std::uint64_t epoch = 0;
    Summary summary;
    std::vector<std::uint64_t> sent, received; // per peer host
  };
  void send_nulls(std::uint64_t want, const std::function<SimTime(int)>& eot_to,
                  const std::function<SimTime()>& min_clock);
  bool wants_report(const Summary& s) const;
  void coordinator_receive(int from, const Report& r);
  void coordinator_decide();
  void broadcast(const Decision& d);

  Transport& t_;
  ProtocolKind kind_;
  SimTime quantum_;
  std::vector<SimTime> channel_;   ///< NMP: bound on future data from each peer
  std::vector<SimTime> null_sent_; ///< last null value sent to each peer
  // Null messages are sent on demand, so that programs whose receives all name their source
  // need no protocol message at all: a host that needs a bound says so in its null messages,
  // and its peers answer it (and only it) from then on.
  std::vector<char> peer_wants_; ///< the peer's last null message asked for bounds
  std::vector<char> wants_sent_; ///< what this host last told each peer it wants
  std::vector<std::uint64_t> sent_, received_;
  std::uint64_t epoch_ = 0; ///< decisions seen
  std::optional<Report> last_report_;
  std::optional<Decision> pending_;
  SimTime window_ = 0;
  SimTime floor_ = 0; ///< every future message has ts >= floor_ (last CEP bound)
  int stall_ = 0;
  // Coordinator (host 0).
  std::vector<std::optional<Report>> reports_;
  std::uint64_t coordinator_epoch_ = 0;
  SyncStats stats_;
};

} // namespace mpisim::protocols
