// The report's picture of a run of up to 64 ranks, as PUPPET printed it: one row per rank, one
// column per slice of simulated time, a character for what the rank mostly did in it.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sim_time.hpp"

namespace mpisim {

using mpilite::SimTime;

/// Largest number of ranks the report draws a timeline for.
inline constexpr int kTimelineMaxRanks = 64;

enum class Activity { Compute, Communicate, Wait };

/// Per rank, time per activity in a fixed number of buckets whose width doubles (merging pairs)
/// whenever the rank's clock outgrows them: constant memory however long the run.
class AsciiTimeline {
public:
  static constexpr int kBuckets = 128;

  explicit AsciiTimeline(int ranks);

  /// `rank` spent [start, end) doing `a`.
  void add(int rank, SimTime start, SimTime end, Activity a);

  /// Text form of the ranks that have anything, for host 0; merge() takes such a text in.
  std::string encode() const;
  void merge(const std::string& encoded);

  /// One line per rank ("rank  3 |##..==#  |"), columns of equal simulated time up to
  /// `predicted`, plus a legend line.
  std::vector<std::string> render(SimTime predicted) const;

private:
  struct Row {
    SimTime width = 1; ///< simulated time per bucket (a power of two)
    std::array<std::array<SimTime, 3>, kBuckets> time{};
    bool used = false;
  };
  static void widen(Row& row);
  std::vector<Row> rows_;
};

} // namespace mpisim
