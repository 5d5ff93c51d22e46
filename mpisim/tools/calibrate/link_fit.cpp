#include "link_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mpisim::calibrate {
namespace {

constexpr double kMinLatency = 1e-9;
constexpr double kEagerStep = 0.10; // an upward step this large marks the eager limit
constexpr double kCutGain = 0.9;    // a cut must remove at least 10 % of the squared error

struct Line {
  double intercept = 0;
  double slope = 0;
};

double at(const Line& l, std::uint64_t bytes) {
  return l.intercept + l.slope * static_cast<double>(bytes);
}

/// Least squares on relative errors over points [first, last), slope >= 0.
Line fit_line(const std::vector<Point>& p, std::size_t first, std::size_t last) {
  // Minimize sum ((a + b s - t) / t)^2: normal equations in a and b.
  double s00 = 0, s01 = 0, s11 = 0, r0 = 0, r1 = 0;
  for (std::size_t i = first; i < last; ++i) {
    const double w = 1 / (p[i].seconds * p[i].seconds);
    const double s = static_cast<double>(p[i].bytes);
    s00 += w;
    s01 += w * s;
    s11 += w * s * s;
    r0 += w * p[i].seconds;
    r1 += w * s * p[i].seconds;
  }
  const double det = s00 * s11 - s01 * s01;
  Line l;
  if (det > 1e-12 * s00 * s11) {
    l.slope = (s00 * r1 - s01 * r0) / det;
    l.intercept = (r0 - s01 * l.slope) / s00;
  }
  if (!(det > 1e-12 * s00 * s11) || l.slope < 0) l = {r0 / s00, 0};
  return l;
}

/// Best slope >= 0 for a fixed intercept over points [first, last).
double fit_slope(const std::vector<Point>& p, std::size_t first, std::size_t last,
                 double intercept) {
  double num = 0, den = 0;
  for (std::size_t i = first; i < last; ++i) {
    const double w = 1 / (p[i].seconds * p[i].seconds);
    const double s = static_cast<double>(p[i].bytes);
    num += w * s * (p[i].seconds - intercept);
    den += w * s * s;
  }
  return den > 0 ? std::max(0.0, num / den) : 0;
}

double squared_error(const std::vector<Point>& p, std::size_t first, std::size_t last,
                     const Line& l) {
  double sum = 0;
  for (std::size_t i = first; i < last; ++i) {
    const double e = (at(l, p[i].bytes) - p[i].seconds) / p[i].seconds;
    sum += e * e;
  }
  return sum;
}

/// Starts of the segments (cuts[0] == 0), and each segment's line.
struct Piecewise {
  std::vector<std::size_t> cuts;
  std::vector<Line> lines;
  double sse = 0;
  double max_error = 0;
};

Piecewise fit_pieces(const std::vector<Point>& p, std::vector<std::size_t> cuts) {
  std::sort(cuts.begin(), cuts.end());
  Piecewise f{cuts, {}, 0, 0};
  for (std::size_t k = 0; k < cuts.size(); ++k) {
    const std::size_t end = k + 1 < cuts.size() ? cuts[k + 1] : p.size();
    f.lines.push_back(fit_line(p, cuts[k], end));
    f.sse += squared_error(p, cuts[k], end, f.lines.back());
    for (std::size_t i = cuts[k]; i < end; ++i)
      f.max_error = std::max(f.max_error, std::abs(at(f.lines.back(), p[i].bytes) - p[i].seconds) /
                                              p[i].seconds);
  }
  return f;
}

/// Whether cutting before point `c` leaves two points on each side within its segment.
bool can_cut(const std::vector<std::size_t>& cuts, std::size_t c, std::size_t n) {
  if (std::find(cuts.begin(), cuts.end(), c) != cuts.end()) return false;
  std::size_t start = 0, end = n;
  for (std::size_t x : cuts) {
    if (x < c) start = std::max(start, x);
    if (x > c) end = std::min(end, x);
  }
  return c >= start + 2 && c + 2 <= end;
}

} // namespace

double model_seconds(const LinkFit& f, std::uint64_t bytes) {
  const LinkFit::Segment* s = &f.segments.front();
  for (const LinkFit::Segment& candidate : f.segments)
    if (bytes >= candidate.from) s = &candidate;
  const double handshake =
      f.break_found && bytes > f.eager_limit ? 2 * f.segments.front().latency : 0;
  return f.send_overhead + f.recv_overhead + handshake + s->latency +
         s->seconds_per_byte * static_cast<double>(bytes);
}

LinkFit fit_link(std::vector<Point> points, const FitOptions& o) {
  std::sort(points.begin(), points.end(),
            [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
  if (points.size() < 2 || points.front().bytes == points.back().bytes)
    throw std::invalid_argument("the fit needs at least two different message sizes");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!(points[i].seconds > 0)) throw std::invalid_argument("a measured time is not positive");
    if (i > 0 && points[i].bytes == points[i - 1].bytes)
      throw std::invalid_argument("a message size is given twice");
  }
  const std::size_t n = points.size();

  // The segments: a cut at a given eager limit first, then the cuts that help most.
  std::vector<std::size_t> cuts{0};
  std::size_t eager_cut = 0; // index of the first rendezvous point, 0 when none
  if (o.eager_limit > 0) {
    const auto above =
        std::upper_bound(points.begin(), points.end(), o.eager_limit,
                         [](std::uint64_t v, const Point& p) { return v < p.bytes; });
    const auto c = static_cast<std::size_t>(above - points.begin());
    if (c > 0 && c < n) {
      cuts.push_back(c);
      eager_cut = c;
    }
  }
  Piecewise best = fit_pieces(points, cuts);
  while (best.max_error > o.tolerance && static_cast<int>(best.cuts.size()) < o.max_segments) {
    Piecewise candidate = best;
    for (std::size_t c = 1; c < n; ++c) {
      if (!can_cut(best.cuts, c, n)) continue;
      std::vector<std::size_t> more = best.cuts;
      more.push_back(c);
      Piecewise f = fit_pieces(points, more);
      if (f.sse < candidate.sse) candidate = f;
    }
    if (!(candidate.sse < kCutGain * best.sse)) break;
    best = candidate;
  }
  if (o.eager_limit == 0) {
    // The protocol switch shows as a step up between two segments.
    double largest = kEagerStep;
    for (std::size_t k = 1; k < best.cuts.size(); ++k) {
      const std::uint64_t s = points[best.cuts[k]].bytes;
      const double before = at(best.lines[k - 1], s);
      const double step = (at(best.lines[k], s) - before) / before;
      if (step > largest) {
        largest = step;
        eager_cut = best.cuts[k];
      }
    }
  }

  LinkFit f;
  f.break_found = eager_cut > 0;
  f.eager_limit = f.break_found ? points[eager_cut - 1].bytes : points.back().bytes;
  // The first segment's intercept is o_s + o_r + L0: the measured overheads split it.
  const double a0 = best.lines[0].intercept;
  const double measured = std::max(o.send_overhead, 0.0) + std::max(o.recv_overhead, 0.0);
  const double overhead = std::clamp(measured, 0.0, std::max(0.0, a0 - kMinLatency));
  const double send_share = measured > 0 ? std::max(o.send_overhead, 0.0) / measured : 0.5;
  f.send_overhead = overhead * send_share;
  f.recv_overhead = overhead - f.send_overhead;
  for (std::size_t k = 0; k < best.cuts.size(); ++k) {
    const std::size_t first = best.cuts[k];
    const std::size_t end = k + 1 < best.cuts.size() ? best.cuts[k + 1] : n;
    const bool rendezvous = f.break_found && first >= eager_cut;
    const double handshake = rendezvous ? 2 * f.segments.front().latency : 0;
    LinkFit::Segment s{k == 0 ? 0 : points[first].bytes,
                       best.lines[k].intercept - overhead - handshake, best.lines[k].slope};
    // The first segment's latency is the lookahead of the simulation: it must be positive.
    // Later ones are intercepts of their lines, so they may be negative, but a message at the
    // segment's start must take some time.
    const double floor =
        k == 0 ? kMinLatency : kMinLatency - s.seconds_per_byte * static_cast<double>(s.from);
    if (s.latency < floor) {
      s.latency = floor;
      if (k == 0)
        s.seconds_per_byte = fit_slope(points, first, end, overhead + handshake + s.latency);
    }
    f.segments.push_back(s);
  }

  double sum = 0;
  for (const Point& p : points) {
    const double model = model_seconds(f, p.bytes);
    const double e = (model - p.seconds) / p.seconds;
    f.fitted.push_back(model);
    f.relative_error.push_back(e);
    sum += e * e;
    f.max_relative_error = std::max(f.max_relative_error, std::abs(e));
  }
  f.rms_relative_error = std::sqrt(sum / static_cast<double>(n));
  return f;
}

MachineParams fitted_machine(const LinkFit& f, const std::string& name,
                             const std::string& description, double poll_overhead,
                             double cpu_scale) {
  auto ps = [](double seconds) { return static_cast<SimTime>(std::llround(seconds * 1e12)); };
  // Whole bytes per second keep mpisim's transfer times exact integers.
  auto bandwidth = [](double seconds_per_byte) {
    return seconds_per_byte > 0 ? std::round(1 / seconds_per_byte) : 0.0;
  };
  MachineParams m = machine_preset("cluster");
  m.name = name;
  m.description = description;
  m.send_overhead = std::max<SimTime>(0, ps(f.send_overhead));
  m.recv_overhead = std::max<SimTime>(0, ps(f.recv_overhead));
  m.latency = std::max<SimTime>(1, ps(f.segments.front().latency));
  m.bandwidth = bandwidth(f.segments.front().seconds_per_byte);
  m.segments.clear();
  for (std::size_t k = 1; k < f.segments.size(); ++k)
    m.segments.push_back(
        {f.segments[k].from, ps(f.segments[k].latency), bandwidth(f.segments[k].seconds_per_byte)});
  m.eager_limit = f.eager_limit;
  m.poll_overhead = std::max<SimTime>(1, ps(poll_overhead));
  m.cpu_scale = cpu_scale;
  // What was measured is the path between two processes: use it between any two ranks.
  m.intra_latency.reset();
  m.intra_bandwidth.reset();
  return m;
}

} // namespace mpisim::calibrate
