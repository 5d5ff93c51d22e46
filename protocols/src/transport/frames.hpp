// The frames of the synchronization core and of simulated messages, and their encodings
// (wire.hpp). The envelope is all the protocols know of MPI.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "envelope.hpp"
#include "sim_time.hpp"
#include "wire.hpp"

namespace mpisim::protocols {

using mpilite::kTimeInfinity;
using mpilite::SimTime;

/// A set of hosts as a bit mask; hosts beyond 63 are always members (a conservative superset).
using HostSet = std::uint64_t;
inline constexpr HostSet kAllHosts = ~HostSet{0};
inline constexpr HostSet host_bit(int h) {
  return h < 64 ? HostSet{1} << h : 0;
}
inline constexpr bool contains(HostSet s, int h) {
  return h >= 64 || (s & host_bit(h)) != 0;
}

/// Null message: every future data frame from the sender has a recv timestamp >= value.
struct NullFrame {
  SimTime value = 0;
  bool wants = false; ///< the sender needs bounds from the receiver
  /// NMP+CEP: null messages make no more progress for the sender, which asks every host to join
  /// the global round of this epoch (decisions it has seen + 1; 0: no request).
  std::uint64_t round = 0;
  /// What the sender's LPs wait for: none can proceed on a bound from the receiver until it
  /// passes this (a hint for choosing between null messages and a round, never for safety).
  SimTime need = kTimeInfinity;
};

/// A host's state when none of its LPs can run.
struct Summary {
  /// Smallest K over the host's LPs (earliest message an LP could produce without new input),
  /// the LP it belongs to, and the second smallest K.
  SimTime k_min = kTimeInfinity;
  std::int64_t k_arg = -1;
  SimTime k_second = kTimeInfinity;
  std::int64_t not_done = 0; ///< LPs of this host that have not finished
  bool needs_bound = false;  ///< some LP waits for a time bound to decide
  /// The host's count of what its LPs did that may let another act (LocalLps::activity): what a
  /// round finds of the snapshot holds there while the count stays.
  std::uint64_t activity = 0;
  bool operator==(const Summary&) const = default;
};

/// A host's quiescent snapshot, to the coordinator.
struct ReportFrame {
  std::uint64_t epoch = 0; ///< decisions the host had seen
  Summary summary;
  std::vector<std::uint64_t> sent, received; ///< data frames per peer host
  bool operator==(const ReportFrame&) const = default;
};

/// What the coordinator concluded from a quiescent snapshot of all hosts.
struct Decision {
  enum class Kind : std::uint8_t { Bound, Window, Deadlock, Finish };
  Kind kind = Kind::Bound;
  std::uint64_t epoch = 0;
  SimTime g = 0, g2 = 0; ///< Bound: global smallest and second smallest K
  std::int64_t arg = -1; ///< Bound: the LP of the smallest
  SimTime window = 0;    ///< Window (quantum): every future message has ts >= window
  /// Bound or Window: the only LP of the run that can act (every other waits for what it would
  /// cause, nothing in flight), or -1.
  std::int64_t alone = -1;
  /// Bound or Window: each host's activity in the snapshot (Summary::activity).
  std::vector<std::uint64_t> activity_of_host;
  /// Bound: each host's smallest K, so that a host can add the lookahead from each other host
  /// rather than the network's smallest latency.
  std::vector<SimTime> k_of_host;
};

/// The envelope and timing of a simulated message between hosts; the payload follows it.
using DataHeader = mpilite::Envelope;

/// Completion of a synchronous or rendezvous send of another host.
struct ReplyFrame {
  std::int32_t to = 0;
  std::uint64_t request = 0;
  SimTime ts = 0;
  std::vector<std::byte> path; ///< the critical path of ts (MPISIM_CRITICAL_PATH), or empty
};

std::vector<std::byte> encode(const NullFrame& f);
std::vector<std::byte> encode(const ReportFrame& f);
std::vector<std::byte> encode(const Decision& f);
std::vector<std::byte> encode(const ReplyFrame& f);
std::vector<std::byte> encode(const mpilite::Transfer& f);
/// The header of a data frame. The frame's body is the header followed by the h.bytes of the
/// payload, sent as two parts (Transport::send_parts).
std::vector<std::byte> encode(const DataHeader& h);

NullFrame decode_null(std::span<const std::byte> body);
/// `hosts`: the number of host processes (the report's per-peer counts).
ReportFrame decode_report(std::span<const std::byte> body, int hosts);
Decision decode_decision(std::span<const std::byte> body);
ReplyFrame decode_reply(std::span<const std::byte> body);
mpilite::Transfer decode_transfer(std::span<const std::byte> body);
/// The header of a data frame, and its payload (in place, h.bytes long, followed by the
/// h.path_bytes of the sender's critical path).
DataHeader decode_data(std::span<const std::byte> body, std::span<const std::byte>& payload);

} // namespace mpisim::protocols
