// The host's clocks, for the simulator's own measurements (wall limits, progress, statistics,
// compute time). A rank's program reads simulated time through clock_gettime and friends
// (mpilite/src/api/api_libc_time.cpp); the simulator, which runs in the ranks' fibers too,
// calls the C library's functions directly and never sees simulated time.
#pragma once

#include <dlfcn.h>
#include <time.h>

#include <chrono>
#include <cstdint>

namespace mpilite {

/// The C library's clock_gettime (the next definition after the executable's).
inline int host_clock_gettime(clockid_t id, timespec* ts) {
  using Fn = int (*)(clockid_t, timespec*);
  static const Fn libc = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "clock_gettime"));
  return libc(id, ts);
}

/// The host clock `id` (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...) in nanoseconds.
inline std::int64_t host_clock_ns(clockid_t id) {
  timespec ts{};
  host_clock_gettime(id, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// std::chrono::steady_clock read from the host's CLOCK_MONOTONIC.
struct HostSteadyClock {
  using duration = std::chrono::steady_clock::duration;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::steady_clock::time_point;
  static constexpr bool is_steady = true;
  static time_point now() {
    timespec ts{};
    host_clock_gettime(CLOCK_MONOTONIC, &ts);
    return time_point(std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec));
  }
};

} // namespace mpilite
