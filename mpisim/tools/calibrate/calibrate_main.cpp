// mpisim-calibrate: PUPPET's "network evaluator" for mpisim. Run with plain mpiexec on the real
// machine (`mpiexec -n 2 mpisim-calibrate -o mine.machine`); ranks 0 and 1 ping-pong over a range
// of message sizes, each size timed as the median of several means of a few round trips (PUPPET's
// mixed median-mean), the points are fitted by least squares (link_fit.hpp), sizes the fit misses
// are measured again, and the result is written as a machine file (docs/machines.md). Then both
// ranks exchange each size with MPI_Sendrecv at once: what a step takes beyond the fitted one-way
// time is the machine's sendrecv_extra.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "config.hpp"
#include "cpu_probe.hpp"
#include "link_fit.hpp"
#include "machine_file.hpp"
#include "units.hpp"

namespace {

using mpisim::calibrate::LinkFit;
using mpisim::calibrate::Point;

constexpr int kTagData = 1;
constexpr int kTagLast = 2;
constexpr double kReceiverDelay = 5e-3; // how long the receiver waits in the eager-limit probe
constexpr int kOverheadMessages = 20;
constexpr int kOverheadSamples = 7;
constexpr double kAutoTargetSeconds = 200e-6; // length of one mean when --reps is not given

struct Options {
  std::string sizes;
  int samples = 15;
  int reps = 0; // 0: chosen per size
  int retries = 3;
  double tolerance = 0.05;
  std::string output = "mpisim-calibrated.machine";
  std::string points;
  std::string name;
  double cpu_reference = 0;
  bool cpu_probe_only = false;
  int max_segments = 8;
  std::string eager_limit;
};

int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::vector<std::uint64_t> parse_sizes(const std::string& text) {
  std::vector<std::uint64_t> sizes;
  if (text.empty()) {
    sizes.push_back(0);
    for (std::uint64_t s = 1; s <= (4u << 20); s *= 2)
      sizes.push_back(s);
    return sizes;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const std::string item = text.substr(start, comma - start);
    sizes.push_back(mpisim::parse_size(item, "--sizes"));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

/// `reps` round trips of `bytes` between ranks 0 and 1; rank 0 returns the elapsed seconds.
double round_trips(std::vector<char>& buf, std::uint64_t bytes, int reps) {
  const int me = world_rank();
  const int count = static_cast<int>(bytes);
  const double start = MPI_Wtime();
  for (int i = 0; i < reps; ++i) {
    if (me == 0) {
      MPI_Send(buf.data(), count, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), count, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (me == 1) {
      MPI_Recv(buf.data(), count, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), count, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD);
    }
  }
  return MPI_Wtime() - start;
}

/// `reps` steps in which ranks 0 and 1 exchange `bytes` with MPI_Sendrecv, each sending what it
/// received the step before (as a ring does), also across calls: `a` is what the next call sends
/// first. The slower rank's elapsed seconds, on rank 0.
double exchanges(std::vector<char>& a, std::vector<char>& b, std::uint64_t bytes, int reps) {
  const int me = world_rank();
  const int count = static_cast<int>(bytes);
  char* bufs[2] = {a.data(), b.data()};
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (me < 2)
    for (int i = 0; i < reps; ++i)
      MPI_Sendrecv(bufs[i % 2], count, MPI_CHAR, 1 - me, kTagData, bufs[(i + 1) % 2], count,
                   MPI_CHAR, 1 - me, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  const double mine = MPI_Wtime() - start;
  // A buffer that is only ever sent stays in the other core's cache: at one step per mean (the
  // large sizes) every mean sent the same, never received, data, and 512 KiB took 33 us
  // against 86 us natively.
  if (reps % 2 != 0) a.swap(b);
  double slowest = mine;
  MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return slowest;
}

/// The step of an exchange of `bytes` (rank 0): the median of --samples means of steps, as many
/// per mean as round trips of ping-pong (`reps`).
double exchange_step(const Options& o, std::vector<char>& a, std::vector<char>& b,
                     std::uint64_t bytes, int reps) {
  exchanges(a, b, bytes, 2);
  std::vector<double> means;
  for (int s = 0; s < o.samples; ++s)
    means.push_back(exchanges(a, b, bytes, reps) / reps);
  return median(means);
}

/// Repetitions of a step of `seconds` that take about 200 us together (1 to 1000).
int reps_for_target(double seconds) {
  return std::clamp(static_cast<int>(std::lround(kAutoTargetSeconds / std::max(seconds, 1e-9))), 1,
                    1000);
}

/// Rounds trips per mean for `bytes`: the given --reps, or enough for about 200 us.
int reps_for(const Options& o, std::vector<char>& buf, std::uint64_t bytes) {
  if (o.reps > 0) return o.reps;
  std::vector<double> singles;
  for (int i = 0; i < 5; ++i)
    singles.push_back(round_trips(buf, bytes, 1));
  int reps = reps_for_target(median(singles));
  MPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return reps;
}

/// One-way time samples of `bytes`: each the mean of reps round trips, halved (rank 0 only).
std::vector<double> measure(const Options& o, std::vector<char>& buf, std::uint64_t bytes) {
  round_trips(buf, bytes, 2); // warm up the path for this size
  const int reps = reps_for(o, buf, bytes);
  std::vector<double> samples;
  for (int s = 0; s < o.samples; ++s)
    samples.push_back(round_trips(buf, bytes, reps) / (2.0 * reps));
  return samples;
}

/// Send and receive overheads: the time of an eager send that returns at once, and of a receive
/// whose message is already there (rank 0's send, rank 1's receive; both broadcast).
std::pair<double, double> measure_overheads() {
  const int me = world_rank();
  char small[8] = {};
  std::vector<double> sends, recvs;
  for (int sample = 0; sample < kOverheadSamples; ++sample) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
      const double start = MPI_Wtime();
      for (int i = 0; i < kOverheadMessages; ++i)
        MPI_Send(small, sizeof small, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD);
      sends.push_back((MPI_Wtime() - start) / kOverheadMessages);
      MPI_Send(small, sizeof small, MPI_CHAR, 1, kTagLast, MPI_COMM_WORLD);
    } else if (me == 1) {
      // Once the last message is there, so are the others (MPI keeps their order).
      MPI_Probe(0, kTagLast, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const double start = MPI_Wtime();
      for (int i = 0; i < kOverheadMessages; ++i)
        MPI_Recv(small, sizeof small, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      recvs.push_back((MPI_Wtime() - start) / kOverheadMessages);
      MPI_Recv(small, sizeof small, MPI_CHAR, 0, kTagLast, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  double result[2] = {median(sends), median(recvs)};
  MPI_Bcast(&result[0], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(&result[1], 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  return {result[0], result[1]};
}

/// Whether a standard send of `bytes` returns before its receive is posted: rank 1 posts it
/// only after a delay, so an eager send returns long before it and a rendezvous send does not.
bool sends_eagerly(std::vector<char>& buf, std::uint64_t bytes) {
  const int me = world_rank();
  const int count = static_cast<int>(bytes);
  int eager = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    const double start = MPI_Wtime();
    MPI_Send(buf.data(), count, MPI_CHAR, 1, kTagData, MPI_COMM_WORLD);
    eager = MPI_Wtime() - start < kReceiverDelay / 2;
  } else if (me == 1) {
    // Wait without calling MPI, so that nothing can take the message in the meantime.
    const double until = MPI_Wtime() + kReceiverDelay;
    while (MPI_Wtime() < until) {
    }
    MPI_Recv(buf.data(), count, MPI_CHAR, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Bcast(&eager, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return eager != 0;
}

/// The largest of `sizes` (sorted) that goes eagerly, by bisection (small sizes go eagerly, large
/// ones may not); 0 when every size does, or when the smallest does not.
std::uint64_t measure_eager_limit(std::vector<char>& buf, const std::vector<std::uint64_t>& sizes) {
  if (sends_eagerly(buf, sizes.back())) return 0;
  std::size_t low = 0, high = sizes.size() - 1; // sizes[low] is eager (assumed), sizes[high] not
  if (!sends_eagerly(buf, sizes[low])) return 0;
  while (high - low > 1) {
    const std::size_t mid = (low + high) / 2;
    (sends_eagerly(buf, sizes[mid]) ? low : high) = mid;
  }
  return sizes[low];
}

/// Cost of an MPI_Iprobe that finds nothing (rank 0).
double measure_poll() {
  int flag = 0;
  std::vector<double> means;
  for (int sample = 0; sample < kOverheadSamples; ++sample) {
    const double start = MPI_Wtime();
    for (int i = 0; i < 100; ++i)
      MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    means.push_back((MPI_Wtime() - start) / 100);
  }
  return median(means);
}

std::string host_of(int rank) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  MPI_Bcast(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, rank, MPI_COMM_WORLD);
  return name;
}

std::string seconds_text(double s) {
  return mpisim::format_time(static_cast<mpisim::SimTime>(std::llround(s * 1e12)));
}

std::string fit_table(const std::vector<Point>& points, const LinkFit& fit) {
  std::string text =
      fmt::format("{:>10}  {:>14}  {:>14}  {:>8}\n", "bytes", "measured", "fitted", "error");
  for (std::size_t i = 0; i < points.size(); ++i)
    text += fmt::format("{:>10}  {:>14}  {:>14}  {:>7.2f}%\n", points[i].bytes,
                        seconds_text(points[i].seconds), seconds_text(fit.fitted[i]),
                        100 * fit.relative_error[i]);
  return text;
}

/// The exchange steps measured, one line per size, each starting with "sendrecv" (the ping-pong
/// table's lines start with the size).
std::string exchange_table(const std::vector<std::uint64_t>& sizes,
                           const std::vector<double>& steps, const LinkFit& fit) {
  std::string text = "MPI_Sendrecv exchange, both ranks at once: step against the fitted one-way "
                     "time\n";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    text += fmt::format("sendrecv {:>10}  {:>14}  one-way {:>14}\n", sizes[i],
                        seconds_text(steps[i]), seconds_text(fit.fitted[i]));
  return text;
}

std::string fit_summary(const LinkFit& fit) {
  std::string text = fmt::format(
      "send overhead {}, receive overhead {}, eager limit {}{}\n", seconds_text(fit.send_overhead),
      seconds_text(fit.recv_overhead), mpisim::format_size(fit.eager_limit),
      fit.break_found ? "" : " (no step seen: the largest size measured)");
  for (const LinkFit::Segment& s : fit.segments)
    text += fmt::format(
        "from {}: latency {}, bandwidth {}\n", mpisim::format_size(s.from), seconds_text(s.latency),
        mpisim::format_bandwidth(s.seconds_per_byte > 0 ? 1 / s.seconds_per_byte : 0));
  return text + fmt::format("residual error: rms {:.2f}%, max {:.2f}%\n",
                            100 * fit.rms_relative_error, 100 * fit.max_relative_error);
}

int run(const Options& o) {
  const int me = world_rank();
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (o.cpu_probe_only) {
    if (me == 0) fmt::print("cpu probe: {:.9f} s\n", mpisim::calibrate::cpu_probe_seconds());
    return 0;
  }
  if (size < 2) {
    if (me == 0)
      fmt::print(stderr, "mpisim-calibrate: needs two processes: mpiexec -n 2 mpisim-calibrate "
                         "(on two nodes to measure the network, on one to measure a node)\n");
    return 2;
  }
  const std::vector<std::uint64_t> sizes = parse_sizes(o.sizes);
  if (sizes.size() < 2) {
    if (me == 0) fmt::print(stderr, "mpisim-calibrate: --sizes needs at least two sizes\n");
    return 2;
  }
  std::vector<char> buf(static_cast<std::size_t>(sizes.back()) + 1);
  const std::string host0 = host_of(0), host1 = host_of(1);

  const auto [send_overhead, recv_overhead] = measure_overheads();
  mpisim::calibrate::FitOptions fit_options;
  fit_options.send_overhead = send_overhead;
  fit_options.recv_overhead = recv_overhead;
  fit_options.max_segments = o.max_segments;
  fit_options.tolerance = o.tolerance;
  fit_options.eager_limit = o.eager_limit.empty()
                                ? measure_eager_limit(buf, sizes)
                                : mpisim::parse_size(o.eager_limit, "--eager-limit");
  std::vector<std::vector<double>> samples(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i)
    samples[i] = measure(o, buf, sizes[i]);

  // Fit, then measure again the sizes the fit misses by more than the tolerance: a busy
  // machine leaves outliers that more samples outvote (PUPPET removed them by hand).
  std::vector<Point> points(sizes.size());
  LinkFit fit;
  for (int round = 0;; ++round) {
    int count = 0;
    std::vector<int> again(sizes.size());
    if (me == 0) {
      for (std::size_t i = 0; i < sizes.size(); ++i)
        points[i] = {sizes[i], median(samples[i])};
      fit = mpisim::calibrate::fit_link(points, fit_options);
      if (round < o.retries)
        for (std::size_t i = 0; i < sizes.size(); ++i)
          if (std::abs(fit.relative_error[i]) > o.tolerance)
            again[static_cast<std::size_t>(count++)] = static_cast<int>(i);
    }
    MPI_Bcast(&count, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (count == 0) break;
    MPI_Bcast(again.data(), count, MPI_INT, 0, MPI_COMM_WORLD);
    for (int k = 0; k < count; ++k) {
      const auto i = static_cast<std::size_t>(again[static_cast<std::size_t>(k)]);
      const std::vector<double> more = measure(o, buf, sizes[i]);
      samples[i].insert(samples[i].end(), more.begin(), more.end());
    }
  }
  // The exchanges, with as many steps per mean as the ping-pong's round trips (about 200 us).
  std::vector<char> other(buf.size());
  std::vector<double> steps(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    int reps = o.reps;
    if (reps == 0 && me == 0) reps = reps_for_target(2 * points[i].seconds);
    MPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD);
    steps[i] = exchange_step(o, buf, other, sizes[i], reps);
  }
  const double poll = measure_poll();
  const double cpu = mpisim::calibrate::cpu_probe_seconds();
  if (me != 0) return 0;

  const double cpu_scale = o.cpu_reference > 0 ? cpu / o.cpu_reference : 1.0;
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  const std::string name = o.name.empty() ? "calibrated-" + host0 : o.name;
  const std::string where = host0 == host1 ? "two processes on " + host0 : host0 + " and " + host1;
  const std::string cpu_line =
      o.cpu_reference > 0
          ? fmt::format("cpu probe {:.6f} s here, {:.6f} s on the simulation host: cpu scale {:g}",
                        cpu, o.cpu_reference, cpu_scale)
          : fmt::format("cpu probe {:.6f} s here; cpu scale 1 (give --cpu-reference with the "
                        "probe time of the simulation host)",
                        cpu);
  const std::string comment =
      fmt::format("calibrated by mpisim-calibrate on {} at {}\n"
                  "ping-pong: median of {}+ means of round trips per size (mixed median-mean)\n"
                  "{}{}\n{}{}",
                  where, date, o.samples, fit_summary(fit), cpu_line, fit_table(points, fit),
                  exchange_table(sizes, steps, fit));
  mpisim::MachineParams machine = mpisim::calibrate::fitted_machine(
      fit, name, fmt::format("calibrated on {} at {}", where, date), poll, cpu_scale);
  // Beyond the fitted one-way time, so that the model's exchange step (the one-way time, both
  // ranks sending at once) plus the extra is the measured step.
  for (std::size_t i = 0; i < sizes.size(); ++i)
    machine.sendrecv_extra.push_back(
        {sizes[i], std::max<mpisim::SimTime>(0, static_cast<mpisim::SimTime>(std::llround(
                                                    (steps[i] - fit.fitted[i]) * 1e12)))});
  std::ofstream out(o.output);
  out << mpisim::format_machine_file(machine, comment);
  if (!out) {
    fmt::print(stderr, "mpisim-calibrate: cannot write {}\n", o.output);
    return 1;
  }
  if (!o.points.empty()) {
    std::ofstream csv(o.points);
    csv << "bytes,measured_seconds,fitted_seconds\n";
    for (std::size_t i = 0; i < points.size(); ++i)
      csv << fmt::format("{},{:.9e},{:.9e}\n", points[i].bytes, points[i].seconds, fit.fitted[i]);
  }
  fmt::print("mpisim-calibrate: {}\n{}{}{}\nmachine file written to {}\n", where,
             fit_table(points, fit), fit_summary(fit), cpu_line, o.output);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"mpisim-calibrate: measure this machine with MPI ping-pong and write a machine "
               "file for mpisim (run it with mpiexec -n 2)",
               "mpisim-calibrate"};
  Options o;
  app.add_option("-o,--output", o.output, "machine file to write")->capture_default_str();
  app.add_option("--sizes", o.sizes,
                 "message sizes, comma-separated (e.g. 0,1KiB,64KiB); default 0 and 1 B to 4 MiB "
                 "in powers of two");
  app.add_option("--samples", o.samples, "means per size, of which the median is taken")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--reps", o.reps, "round trips per mean (default: about 200 us worth)")
      ->check(CLI::PositiveNumber);
  app.add_option("--retries", o.retries, "rounds of measuring again the sizes the fit misses")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--tolerance", o.tolerance, "relative error above which a size is measured again")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--segments", o.max_segments,
                 "most size segments with a latency and bandwidth of their own")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--eager-limit", o.eager_limit,
                 "the MPI library's eager limit, if known (default: measured with sends whose "
                 "receiver is late)");
  app.add_option("--points", o.points, "also write the measured and fitted points as CSV");
  app.add_option("--name", o.name, "machine name (default calibrated-<host>)");
  app.add_option("--cpu-reference", o.cpu_reference,
                 "CPU probe seconds of the host that will run simulations (from --cpu-probe "
                 "there): sets cpu_scale")
      ->check(CLI::PositiveNumber);
  app.add_flag("--cpu-probe", o.cpu_probe_only, "only print this machine's CPU probe time");
  MPI_Init(&argc, &argv);
  int code = 0;
  try {
    app.parse(argc, argv);
    code = run(o);
  } catch (const CLI::ParseError& e) {
    // --help, or a bad command line (2, as the tools' other usage errors).
    code = (world_rank() == 0 ? app.exit(e) : e.get_exit_code()) == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    if (world_rank() == 0) fmt::print(stderr, "mpisim-calibrate: {}\n", e.what());
    code = 2;
  }
  MPI_Finalize();
  return code;
}
