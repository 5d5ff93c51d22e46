// Simulated time: signed 64-bit picoseconds. The kernel never uses floating point for time.
#pragma once

#include <cstdint>
#include <limits>

namespace mpilite {

using SimTime = std::int64_t;

inline constexpr SimTime kPicosPerSecond = 1'000'000'000'000;
inline constexpr SimTime kTimeInfinity = std::numeric_limits<SimTime>::max() / 4;

/// Seconds (as given by a user, e.g. to MPISIM_Compute) to picoseconds, rounded to nearest.
inline SimTime seconds_to_time(double s) {
  return static_cast<SimTime>(s * static_cast<double>(kPicosPerSecond) + (s >= 0 ? 0.5 : -0.5));
}
inline double time_to_seconds(SimTime t) {
  return static_cast<double>(t) / static_cast<double>(kPicosPerSecond);
}

} // namespace mpilite
