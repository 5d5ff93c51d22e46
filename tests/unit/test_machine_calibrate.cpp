// The fit of mpisim-calibrate on made-up measurements whose parameters are known, and the
// machine it writes: simulated ping-pong on it gives the fitted times back.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "link_fit.hpp"
#include "machine_file.hpp"
#include "sim_harness.hpp"

namespace {

using mpisim::calibrate::FitOptions;
using mpisim::calibrate::LinkFit;
using mpisim::calibrate::Point;

// A made-up MPI library: 1 us + 0.5 us of overheads, 2 us latency at 1 GB/s up to its eager
// limit of 8 KiB; above it a rendezvous whose data goes at 4 GB/s after 20 us more: a step up.
constexpr double kSend = 1e-6, kRecv = 0.5e-6, kLatency = 2e-6, kPerByte = 1e-9;
constexpr double kLargeLatency = 20e-6, kLargePerByte = 0.25e-9;
constexpr std::uint64_t kEager = 8192;

double made_up_time(std::uint64_t n) {
  const double x = static_cast<double>(n);
  if (n <= kEager) return kSend + kLatency + x * kPerByte + kRecv;
  return kSend + 2 * kLatency + kLargeLatency + x * kLargePerByte + kRecv;
}

std::vector<Point> made_up_points(const std::vector<std::uint64_t>& sizes) {
  std::vector<Point> points;
  for (std::uint64_t n : sizes)
    points.push_back({n, made_up_time(n)});
  return points;
}

FitOptions measured_overheads() {
  FitOptions o;
  o.send_overhead = kSend;
  o.recv_overhead = kRecv;
  return o;
}

void expect_close(double got, double want, const char* what) {
  EXPECT_NEAR(got, want, 1e-9 * std::abs(want) + 1e-18) << what;
}

TEST(CalibrateFit, RecoversOverheadsLatencyBandwidthAndEagerLimit) {
  const std::vector<std::uint64_t> sizes{0, 1024, 2048, 4096, 8192, 16384, 65536, 262144, 1 << 20};
  const LinkFit f = mpisim::calibrate::fit_link(made_up_points(sizes), measured_overheads());
  ASSERT_TRUE(f.break_found);
  EXPECT_EQ(f.eager_limit, kEager);
  ASSERT_EQ(f.segments.size(), 2u);
  expect_close(f.send_overhead, kSend, "send overhead");
  expect_close(f.recv_overhead, kRecv, "receive overhead");
  expect_close(f.segments[0].latency, kLatency, "latency");
  expect_close(f.segments[0].seconds_per_byte, kPerByte, "1 / bandwidth");
  EXPECT_EQ(f.segments[1].from, 16384u);
  expect_close(f.segments[1].latency, kLargeLatency, "rendezvous latency");
  expect_close(f.segments[1].seconds_per_byte, kLargePerByte, "rendezvous 1 / bandwidth");
  EXPECT_LT(f.max_relative_error, 1e-9);
  for (std::uint64_t n : {0ull, 5000ull, 20000ull, 3000000ull})
    expect_close(mpisim::calibrate::model_seconds(f, n), made_up_time(n), "model");
}

TEST(CalibrateFit, AStraightLineNeedsOneSegmentAndNoBreak) {
  std::vector<Point> points;
  for (std::uint64_t n : {0, 100, 1000, 10000, 100000})
    points.push_back({n, 5e-6 + 1e-9 * static_cast<double>(n)});
  const LinkFit f = mpisim::calibrate::fit_link(points, measured_overheads());
  EXPECT_FALSE(f.break_found);
  EXPECT_EQ(f.eager_limit, 100000u); // the largest size measured
  ASSERT_EQ(f.segments.size(), 1u);
  // Only o_s + o_r + L = 5 us is seen; the measured overheads take their part of it.
  expect_close(f.segments[0].latency, 5e-6 - kSend - kRecv, "latency");
  expect_close(f.segments[0].seconds_per_byte, 1e-9, "1 / bandwidth");
}

TEST(CalibrateFit, OverheadsNeverExceedWhatTheTimesAllow) {
  FitOptions o;
  o.send_overhead = 4e-6; // more than the whole 3 us intercept
  o.recv_overhead = 4e-6;
  std::vector<Point> points{{0, 3e-6}, {1000, 4e-6}, {2000, 5e-6}};
  const LinkFit f = mpisim::calibrate::fit_link(points, o);
  EXPECT_GE(f.segments[0].latency, 1e-9);
  expect_close(f.send_overhead + f.recv_overhead + f.segments[0].latency, 3e-6, "intercept");
  expect_close(f.send_overhead, f.recv_overhead, "split as measured: equal");
}

TEST(CalibrateFit, GivenEagerLimitIsWhereTheBreakGoes) {
  FitOptions o = measured_overheads();
  o.eager_limit = kEager;
  const std::vector<std::uint64_t> sizes{0, 4096, 8192, 16384, 65536};
  const LinkFit f = mpisim::calibrate::fit_link(made_up_points(sizes), o);
  EXPECT_TRUE(f.break_found);
  EXPECT_EQ(f.eager_limit, kEager);
  EXPECT_LT(f.max_relative_error, 1e-9);
}

TEST(CalibrateFit, NeedsTwoSizes) {
  EXPECT_THROW(mpisim::calibrate::fit_link({{64, 1e-6}}, FitOptions{}), std::invalid_argument);
  EXPECT_THROW(mpisim::calibrate::fit_link({{64, 1e-6}, {64, 2e-6}}, FitOptions{}),
               std::invalid_argument);
  EXPECT_THROW(mpisim::calibrate::fit_link({{0, 1e-6}, {64, 0}}, FitOptions{}),
               std::invalid_argument);
}

TEST(CalibrateFit, SimulatedPingPongOnTheFittedMachineGivesTheFittedTimes) {
  const std::vector<std::uint64_t> sizes{0, 1024, 2048, 4096, 8192, 16384, 65536, 262144};
  const LinkFit f = mpisim::calibrate::fit_link(made_up_points(sizes), measured_overheads());
  const mpisim::MachineParams m =
      mpisim::calibrate::fitted_machine(f, "fitted", "made up", 50e-9, 1.0);
  // The machine file holds it exactly.
  EXPECT_EQ(mpisim::parse_machine_text(mpisim::format_machine_file(m), "f"), m);
  mpisim::Config c = test::config(2);
  c.machine = m;
  std::vector<double> one_way(sizes.size());
  auto r = test::simulate(c, [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    std::vector<char> buf(sizes.back());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const int n = static_cast<int>(sizes[i]);
      const double start = MPI_Wtime();
      if (me == 0) {
        MPI_Send(buf.data(), n, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), n, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        one_way[i] = (MPI_Wtime() - start) / 2;
      } else {
        MPI_Recv(buf.data(), n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf.data(), n, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  for (std::size_t i = 0; i < sizes.size(); ++i)
    EXPECT_NEAR(one_way[i], made_up_time(sizes[i]), 1e-12) << sizes[i] << " bytes";
}

} // namespace
