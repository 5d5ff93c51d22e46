#include "replay_checks.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace mpisim {
namespace {

/// Whether a difference of `rank` at `time` comes before the one `c` holds.
bool earlier(const ReplayChecks& c, int rank, mpilite::SimTime time) {
  return c.first_rank < 0 || std::tie(time, rank) < std::tie(c.first_time, c.first_rank);
}

} // namespace

void ReplayChecks::differ(int rank, mpilite::SimTime time,
                          const std::function<std::string()>& describe) {
  ++differing;
  if (!earlier(*this, rank, time)) return;
  first_rank = rank;
  first_time = time;
  first = describe();
}

void ReplayChecks::merge(const ReplayChecks& other) {
  checked += other.checked;
  differing += other.differing;
  unchecked += other.unchecked;
  clock_reads = std::max(clock_reads, other.clock_reads);
  if (other.first_rank >= 0 && earlier(*this, other.first_rank, other.first_time)) {
    first_rank = other.first_rank;
    first_time = other.first_time;
    first = other.first;
  }
}

std::vector<std::string> replay_warnings(const ReplayChecks& c) {
  std::vector<std::string> out;
  if (c.differing)
    out.push_back(fmt::format(
        "warning: {} of the replay's {} wildcard matches, test outcomes and nodes differ from the "
        "recorded run's; the first: {}. The prediction is approximate: what the ranks did after "
        "these operations (their compute, the messages they sent) was recorded for the original "
        "outcomes, so this machine model may make the program do other work. Run the program live "
        "on this model for an exact prediction (the report's replay.diverged is true; "
        "--strict makes this exit with code {})",
        c.differing, c.checked, c.first, kReplayDivergedExitCode));
  if (c.unchecked)
    out.push_back(fmt::format(
        "note: the record holds no outcome for {} wildcard matches and test results (it was made "
        "by an mpisim that did not record them): whether the replay matched them as the recorded "
        "run did cannot be checked; record the run again to have them checked",
        c.unchecked));
  if (c.clock_reads)
    out.push_back(fmt::format(
        "note: the recorded program read the clock {} times (MPI_Wtime, gettimeofday, "
        "clock_gettime, ...): the replay gives it no other times, so it is exact only if what the "
        "program did does not depend on the times it read (a loop that runs until a time budget "
        "is used up does); run the program live on this model to be sure (the report's "
        "replay.clock_reads)",
        c.clock_reads));
  return out;
}

} // namespace mpisim
