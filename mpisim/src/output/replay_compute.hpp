// What a recorded stretch of compute costs in a replay, and the ideal-balance bound of a what-if
// study: every rank's k-th stretch replaced by the mean of the ranks' k-th stretches, as the
// load-balance efficiency of the POP methodology compares the mean with the maximum.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim_time.hpp"

namespace mpisim {

/// A record's compute that the replay cannot charge (it would pass the limit of simulated time).
struct BadComputeRecord : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a `compute MEASURED DECLARED` line charges on a machine whose CPU scale is `scale`
/// times the recording machine's: measured compute scales, declared compute (MPISIM_Compute)
/// does not. Throws BadComputeRecord when the scaled time passes the limit.
mpilite::SimTime replayed_compute(mpilite::SimTime measured, mpilite::SimTime declared,
                                  double scale);

/// Per k: the mean, rounded down, of what the k-th `compute` line of each rank of `dir` that
/// has one charges at `scale`. Throws std::runtime_error naming the file and line of a record it
/// cannot read.
std::vector<mpilite::SimTime> balanced_compute(const std::string& dir, int ranks, double scale);

} // namespace mpisim
