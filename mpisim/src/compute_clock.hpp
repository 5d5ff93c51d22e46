// Measures the compute bursts of ranks (from leaving one MPI call to entering the next) for
// tens of nanoseconds per call: the time-stamp counter times every burst, and the thread CPU
// clock, a system call of microseconds, is read only for bursts long enough to have been
// preempted in.
#pragma once

#include <cstdint>

namespace mpisim {

class ComputeClock {
public:
  /// Bursts longer than this (host ns) are charged their thread CPU time, not wall time.
  static constexpr double kLongBurstNs = 100'000;

  /// Now, in ticks of the host clock: read last thing when a rank leaves MPI.
  std::uint64_t now() const;
  /// Host CPU time (ns) of the burst that started at `start` (a now()): read first thing when
  /// the rank enters MPI. A short burst is its wall time; a long one its thread CPU time.
  double burst_ns(std::uint64_t start);
  /// Rereads the thread CPU clock when the last reading is older than a long burst, so that a
  /// long burst's CPU time is measured from a reading just before it. Call before now() when a
  /// rank leaves MPI, so the reading is not charged to it.
  void refresh();

private:
  double elapsed_ns(std::uint64_t from, std::uint64_t to) {
    return static_cast<double>(static_cast<std::int64_t>(to - from)) *
           (ns_per_tick_ > 0 ? ns_per_tick_ : rate());
  }
  /// Sets ns_per_tick_ from the process's calibration, made at the first use (which may wait
  /// for it) and shared by every ComputeClock.
  double rate();

  double ns_per_tick_ = 0;      ///< 0 until the first conversion
  std::uint64_t ref_ticks_ = 0; ///< when the thread CPU clock was last read ...
  std::int64_t ref_cpu_ns_ = 0; ///< ... and what it said
};

} // namespace mpisim
