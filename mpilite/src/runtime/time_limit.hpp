// Simulated time is bounded (kTimeLimit in sim_time.hpp): a charge or a message that would pass
// the bound ends the run with an error naming the rank and the call, instead of a clock that
// wraps around and then hangs the run or predicts nonsense.
#pragma once

#include <string>

#include "sim_time.hpp"

namespace mpilite {

struct Rank;

/// "the limit of 2000000 s (23 days)".
std::string time_limit_text();

/// Ends the run: `what` (e.g. "MPISIM_Compute(1e+07 s)") would take rank `r`'s simulated time
/// past kTimeLimit. From a rank's fiber the run ends with its report; elsewhere the process exits.
[[noreturn]] void fail_time_limit(const Rank& r, std::string what);

} // namespace mpilite
