// Simulated time: signed 64-bit picoseconds. The kernel never uses floating point for time.
#pragma once

#include <cstdint>
#include <limits>

namespace mpilite {

using SimTime = std::int64_t;

inline constexpr SimTime kPicosPerSecond = 1'000'000'000'000;
inline constexpr SimTime kTimeInfinity = std::numeric_limits<SimTime>::max() / 4;
/// The latest simulated time a run may reach (2 000 000 s, about 23 days). It stays below
/// kTimeInfinity, which the protocols read as "never", and any two times up to it add up
/// without overflow, so clocks, timestamps and bounds need no checks of their own below it.
inline constexpr SimTime kTimeLimit = 2'000'000 * kPicosPerSecond;
static_assert(kTimeLimit < kTimeInfinity && 2 * kTimeInfinity > 0);

/// a + b for times in [0, kTimeInfinity], saturating at kTimeInfinity.
inline SimTime saturating_add(SimTime a, SimTime b) {
  return a >= kTimeInfinity - b ? kTimeInfinity : a + b;
}
/// n * t for t in [0, kTimeInfinity] and n >= 0, saturating at kTimeInfinity.
inline SimTime saturating_mul(SimTime n, SimTime t) {
  return t != 0 && n >= kTimeInfinity / t ? kTimeInfinity : n * t;
}

/// Whether `ps` picoseconds (a double, e.g. from a user's seconds) is a time in
/// [0, kTimeLimit]; false for NaN.
inline bool within_time_limit(double ps) {
  return ps >= 0 && ps <= static_cast<double>(kTimeLimit);
}

/// Seconds (as given by a user, e.g. to MPISIM_Compute) to picoseconds, rounded to nearest.
/// Only for |s| within the time limit (within_time_limit(s * 1e12) checks it).
inline SimTime seconds_to_time(double s) {
  return static_cast<SimTime>(s * static_cast<double>(kPicosPerSecond) + (s >= 0 ? 0.5 : -0.5));
}
inline double time_to_seconds(SimTime t) {
  return static_cast<double>(t) / static_cast<double>(kPicosPerSecond);
}

} // namespace mpilite
