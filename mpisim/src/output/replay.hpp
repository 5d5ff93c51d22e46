// mpisim-replay: runs a recorded run (MPISIM_RECORD) again without the program. Each rank is a
// fiber that re-issues its recorded MPI operations against the real MPI implementation, with
// the recorded compute charged as MPISIM_Compute charges it, so that on the same machine model
// the replay predicts exactly what the live run predicted, and on another what that machine
// would take for the same operations.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "machine.hpp"
#include "replay_checks.hpp"
#include "world.hpp"

namespace mpisim {

/// What meta.json of a recorded directory says.
struct RecordMeta {
  int ranks = 0;
  double cpu_scale = 1; ///< of the recording machine: measured compute scales with it
  /// OpenMP: the largest team of any rank (0: none, or a record made before it was recorded),
  /// and the recording machine's cores per rank and fork-join time its regions were charged for.
  int widest_team = 0;
  int cores_per_rank = 1;
  SimTime fork_join = 0;
  std::string machine;
  std::string outcome;
  /// Largest replay buffer the record can justify: a margin over the recorded run's peak memory
  /// (0: unknown, records made before it was recorded).
  std::uint64_t buffer_bound = 0;
  /// How often the program read the clock (0 also for records made before it was recorded).
  std::uint64_t clock_reads = 0;
  /// What the record's compute depends on beyond cpu_scale: the recording machine's node speeds
  /// (format_node_speeds) and ranks per node, and MPISIM_LIBC_TIME (its sleeps are compute
  /// when simulated). Empty or 0: not recorded (older records), not checked.
  std::string node_speed;
  int ranks_per_node = 0;
  std::string libc_time;
};

/// The file in a record that holds the recording run's machine (a machine file): a replay
/// without --machine runs on it.
inline constexpr const char* kRecordedMachineFile = "machine";

/// Reads `dir`/meta.json; throws std::runtime_error naming the problem.
RecordMeta read_record_meta(const std::string& dir);

/// Why the record's compute cannot stand for `machine`'s (its OpenMP regions were charged for
/// other cores or another fork-join time); empty when it can.
std::string openmp_mismatch(const RecordMeta& meta, const MachineParams& machine);

/// Why the record's compute cannot stand for a replay with `machine` and `simulated_libc_time`
/// for another reason than OpenMP (node speeds, sleeps); empty when it can.
std::string compute_mismatch(const RecordMeta& meta, const MachineParams& machine,
                             bool simulated_libc_time);

/// MPISIM_LIBC_TIME's value as a record's meta.json holds it.
inline const char* libc_time_name(bool simulated) {
  return simulated ? "simulated" : "host";
}

/// The main of every rank of a replay of `dir`. Measured compute is multiplied by
/// `compute_scale` (the replay machine's CPU scale over the recording machine's); declared
/// compute (MPISIM_Compute) is replayed as it was. A buffer larger than `buffer_bound` bytes
/// (0: no bound) is an error of the record. The ranks of this host process add to `checks`
/// what they find comparing their outcomes with the recorded ones (replay_checks.hpp). With
/// `balanced` (balanced_compute()), each rank's k-th stretch of compute charges its k-th entry.
mpilite::World::Main replay_main(std::string dir, double compute_scale,
                                 std::uint64_t buffer_bound = 0,
                                 std::shared_ptr<ReplayChecks> checks = nullptr,
                                 std::shared_ptr<const std::vector<SimTime>> balanced = nullptr);

} // namespace mpisim
