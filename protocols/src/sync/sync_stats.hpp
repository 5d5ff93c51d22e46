// Protocol statistics of one host, for the report.
#pragma once

#include <cstdint>

namespace mpisim::protocols {

struct SyncStats {
  std::uint64_t null_messages = 0;        ///< null messages sent
  std::uint64_t null_rounds = 0;          ///< times this host sent a batch of null messages
  std::uint64_t reports = 0;              ///< snapshots of this host sent to the coordinator
  std::uint64_t cep_rounds = 0;           ///< bound decisions applied
  std::uint64_t quantum_barriers = 0;     ///< window decisions applied
  std::uint64_t remote_sent = 0;          ///< data frames sent to other hosts
  std::uint64_t remote_received = 0;      ///< data frames received from other hosts
  std::uint64_t det_profile_receives = 0; ///< wildcard receives completed by a DET profile
  double lookahead_sum_s = 0; ///< sum over null messages of (value - host's smallest clock)
  double blocked_wall_s = 0;  ///< wall time spent idle waiting for other hosts
  /// The paper's rounds of protocol messages R: null-message batches plus global rounds.
  std::uint64_t rounds() const { return null_rounds + cep_rounds + quantum_barriers; }
};

} // namespace mpisim::protocols
