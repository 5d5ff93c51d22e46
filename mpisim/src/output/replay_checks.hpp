// What mpisim-replay finds comparing its timing-dependent outcomes (what wildcard receives and
// probes matched, what tests found) with those of the recorded run. The replay matches wildcards
// again on its own machine model, but what each rank did after a match (its compute, the messages
// it sent) was recorded for the original match: where the two differ, the prediction is only
// approximate, and the run says so.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim_time.hpp"

namespace mpisim {

/// `mpisim-replay --strict`: the exit code of a replay whose outcomes differ from the record.
inline constexpr int kReplayDivergedExitCode = 4;

struct ReplayChecks {
  std::uint64_t checked = 0;   ///< outcomes compared with the record
  std::uint64_t differing = 0; ///< of them, those that differ
  std::uint64_t unchecked = 0; ///< outcomes the record does not hold (made before it held them)
  /// The earliest difference in simulated time (then by rank); first_rank -1 when none.
  int first_rank = -1;
  mpilite::SimTime first_time = 0;
  std::string first;
  /// How often the recorded program read the clock (RecordMeta::clock_reads): what it did after
  /// may depend on the times it read, which no outcome shows. The same on every host process.
  std::uint64_t clock_reads = 0;

  /// A difference found by `rank` at `time`: `describe` tells it, called only when it is the
  /// earliest so far.
  void differ(int rank, mpilite::SimTime time, const std::function<std::string()>& describe);
  /// Adds what another host process found.
  void merge(const ReplayChecks& other);
};

/// What a replay prints after its report: a warning when outcomes differ, a note when the
/// record holds some not to check; none when every outcome was as recorded.
std::vector<std::string> replay_warnings(const ReplayChecks& checks);

} // namespace mpisim
