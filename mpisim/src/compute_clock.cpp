#include "compute_clock.hpp"

#include <time.h>

#include <algorithm>

#include "host_clock.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

namespace mpisim {
namespace {

/// Whether the TSC ticks at a constant rate, also across sleep states and cores (CPUID's
/// invariant-TSC bit); where it does not, CLOCK_MONOTONIC (a vDSO read) is the clock.
bool invariant_tsc() {
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8)) != 0;
#else
  return false;
#endif
}

const bool use_tsc = invariant_tsc();

std::uint64_t ticks() {
#if defined(__x86_64__)
  if (use_tsc) return __rdtsc();
#endif
  return static_cast<std::uint64_t>(mpilite::host_clock_ns(CLOCK_MONOTONIC));
}

/// A reading of CLOCK_MONOTONIC and of the TSC at the same instant: of a few tries, the one
/// whose two TSC reads around the CLOCK_MONOTONIC read are closest (not preempted in between).
struct ClockPair {
  std::int64_t mono_ns;
  double ticks;
};
ClockPair read_pair() {
  ClockPair best{0, 0};
  std::uint64_t best_gap = ~std::uint64_t{0};
  for (int i = 0; i < 5; ++i) {
    const std::uint64_t before = ticks();
    const std::int64_t mono = mpilite::host_clock_ns(CLOCK_MONOTONIC);
    const std::uint64_t after = ticks();
    if (after - before < best_gap) {
      best_gap = after - before;
      best = {mono, static_cast<double>(before) + static_cast<double>(after - before) / 2};
    }
  }
  return best;
}

/// The first reading of the calibration below, taken when the process starts.
const ClockPair g_process_start = read_pair();

/// ns per tick, measured once per process against CLOCK_MONOTONIC over at least 0.5 ms of wall
/// time, from the process's start to the first compute burst it charges: the simulator's own
/// start-up covers most of it (a busy wait of 2 ms from the first burst cost every run before).
/// On this machine's VM, 200 calibrations over 0.5 ms each differed from one over 200 ms by
/// 2e-5 at most (2 ms: 4e-7); preemption while waiting does not matter, both clocks count wall
/// time.
double calibrate() {
  if (!use_tsc) return 1.0;
  while (mpilite::host_clock_ns(CLOCK_MONOTONIC) - g_process_start.mono_ns < 500'000) {
  }
  const ClockPair last = read_pair();
  return static_cast<double>(last.mono_ns - g_process_start.mono_ns) /
         (last.ticks - g_process_start.ticks);
}

} // namespace

double ComputeClock::rate() {
  static const double ns_per_tick = calibrate();
  ns_per_tick_ = ns_per_tick;
  return ns_per_tick_;
}

std::uint64_t ComputeClock::now() const {
  return ticks();
}

double ComputeClock::burst_ns(std::uint64_t start) {
  const std::uint64_t end = ticks();
  const double wall = elapsed_ns(start, end);
  if (wall <= kLongBurstNs) return wall;
  // Long enough that another process may have had the CPU in it. The thread's CPU time since
  // the last reading, less the wall time from that reading to the burst (the simulator's own
  // work, on a CPU). No wall time across a system call is subtracted: the kernel often preempts
  // at a system call's return, and the CPU clock does not count that time anyway.
  const std::int64_t cpu = mpilite::host_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  const std::uint64_t read = ticks();
  const double burst_cpu = static_cast<double>(cpu - ref_cpu_ns_) - elapsed_ns(ref_ticks_, start);
  ref_cpu_ns_ = cpu;
  ref_ticks_ = read;
  return std::clamp(burst_cpu, 0.0, wall);
}

void ComputeClock::refresh() {
  if (ref_ticks_ != 0 && elapsed_ns(ref_ticks_, ticks()) < kLongBurstNs) return;
  ref_cpu_ns_ = mpilite::host_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  ref_ticks_ = ticks();
}

} // namespace mpisim
