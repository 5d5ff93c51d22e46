// The least-squares fit of mpisim-calibrate: from measured one-way ping-pong times to the
// overheads, latency, bandwidth, size segments and eager limit of mpisim's message model
// (docs/model.md, docs/machines.md). No MPI here, so unit tests check the fit on made-up points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machine.hpp"

namespace mpisim::calibrate {

/// One message size and its one-way time (half a round trip), in seconds.
struct Point {
  std::uint64_t bytes = 0;
  double seconds = 0;
};

/// mpisim's model of a one-way ping-pong time of n bytes, with the link of the segment that
/// holds n (latency L(n), seconds per byte b(n)) and L0 the latency of the first segment:
///   eager (n <= eager_limit):  o_s + L(n) + n b(n) + o_r
///   rendezvous:                o_s + 2 L0 + L(n) + n b(n) + o_r
/// (request-to-send and clear-to-send are header-only messages of the first segment).
struct LinkFit {
  struct Segment {
    std::uint64_t from = 0; ///< first size of the segment; 0 for the first
    double latency = 0;     ///< seconds
    double seconds_per_byte = 0;
  };
  double send_overhead = 0; ///< seconds
  double recv_overhead = 0; ///< seconds
  std::vector<Segment> segments;
  std::uint64_t eager_limit = 0;      ///< largest eager size
  bool break_found = false;           ///< some measured sizes were above the eager limit
  std::vector<double> fitted;         ///< the model's time for each point
  std::vector<double> relative_error; ///< (fitted - measured) / measured for each point
  double rms_relative_error = 0;
  double max_relative_error = 0; ///< largest |relative_error|
};

/// The model's one-way time for `bytes` under `fit`.
double model_seconds(const LinkFit& fit, std::uint64_t bytes);

struct FitOptions {
  double send_overhead = 0; ///< measured directly: splits o_s + o_r, and bounds it
  double recv_overhead = 0;
  int max_segments = 4;          ///< segments of sizes with a line each (each needs two sizes)
  double tolerance = 0.05;       ///< segments are added while a point misses by more than this
  std::uint64_t eager_limit = 0; ///< the MPI's eager limit if known (a break there); 0: find it
};

/// Fits the points (any order, at least two different sizes) by least squares on relative
/// errors, so that small and large messages count alike. Sizes are cut into segments with a
/// line each, greedily at the cut that helps most, while a point misses by more than the
/// tolerance. The eager limit is the cut with the largest upward step (at least 10 %), unless
/// given. Parameters are kept physical: overheads >= 0, the first segment's latency >= 1 ns (a
/// later segment's latency is its line's intercept, which may be negative, but its line is at
/// least 1 ns at its first size), 1/bandwidth >= 0.
LinkFit fit_link(std::vector<Point> points, const FitOptions& options);

/// The machine of `fit` (fully connected, one rank per node, the calibrated link), named `name`,
/// with `poll_overhead` (seconds) and `cpu_scale`.
MachineParams fitted_machine(const LinkFit& fit, const std::string& name,
                             const std::string& description, double poll_overhead,
                             double cpu_scale);

} // namespace mpisim::calibrate
