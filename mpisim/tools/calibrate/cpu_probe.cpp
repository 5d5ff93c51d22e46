#include "cpu_probe.hpp"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mpisim::calibrate {
namespace {

double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// A mix of what programs do: sorting (branches, memory), and floating-point arithmetic.
double work() {
  constexpr std::size_t kInts = 200'000;
  std::vector<std::uint32_t> v(kInts);
  std::uint32_t state = 12345;
  for (auto& x : v) {
    state = state * 1103515245u + 12345u;
    x = state >> 8;
  }
  std::sort(v.begin(), v.end());
  double sum = 0;
  double x = 0.5;
  for (int i = 0; i < 2'000'000; ++i) {
    x = x * 1.0000001 + 1e-7;
    sum += std::sqrt(x) * 0.5;
  }
  return sum + static_cast<double>(v[kInts / 2]);
}

} // namespace

double cpu_probe_seconds(int runs) {
  std::vector<double> times;
  volatile double sink = 0;
  for (int i = 0; i < std::max(runs, 1); ++i) {
    const double start = thread_cpu_seconds();
    sink = sink + work();
    times.push_back(thread_cpu_seconds() - start);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace mpisim::calibrate
