// Units are compared exactly: predictions are checked to the picosecond, so a parse that goes
// through a double and loses a picosecond would be a wrong prediction, not a small error.
#include <gtest/gtest.h>

#include <string>

#include "config_error.hpp"
#include "units.hpp"

using mpisim::ConfigError;
using mpisim::format_bandwidth;
using mpisim::format_size;
using mpisim::format_time;
using mpisim::parse_bandwidth;
using mpisim::parse_size;
using mpisim::parse_time;

namespace {

constexpr const char* kWhat = "MPISIM_TEST";

/// The message of the ConfigError `parse` throws, or "" when it does not throw.
template <class Parse> std::string error_of(Parse parse) {
  try {
    parse();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST(ParseTime, UnitsAreExact) {
  EXPECT_EQ(parse_time("1.5us", kWhat), 1'500'000);
  EXPECT_EQ(parse_time("0.1us", kWhat), 100'000);
  EXPECT_EQ(parse_time("40us", kWhat), 40'000'000);
  EXPECT_EQ(parse_time("2ms", kWhat), 2'000'000'000);
  EXPECT_EQ(parse_time("1s", kWhat), 1'000'000'000'000);
  EXPECT_EQ(parse_time("250ns", kWhat), 250'000);
  EXPECT_EQ(parse_time("7ps", kWhat), 7);
  EXPECT_EQ(parse_time("1449.8us", kWhat), 1'449'800'000);
  EXPECT_EQ(parse_time("0.000001s", kWhat), 1'000'000);
}

TEST(ParseTime, BareNumberIsSeconds) {
  EXPECT_EQ(parse_time("0", kWhat), 0);
  EXPECT_EQ(parse_time("2", kWhat), 2'000'000'000'000);
  EXPECT_EQ(parse_time("1e-6", kWhat), 1'000'000);
  EXPECT_EQ(parse_time("1.5e-6", kWhat), 1'500'000);
}

TEST(ParseTime, MicroSignsAndSpaces) {
  EXPECT_EQ(parse_time("3\u00b5s", kWhat), 3'000'000);
  EXPECT_EQ(parse_time("3\u03bcs", kWhat), 3'000'000);
  EXPECT_EQ(parse_time(" 1.5 us ", kWhat), 1'500'000);
}

TEST(ParseTime, RoundsBelowAPicosecondToNearest) {
  EXPECT_EQ(parse_time("1.4ps", kWhat), 1);
  EXPECT_EQ(parse_time("1.5ps", kWhat), 2);
  EXPECT_EQ(parse_time("0.0000000000001", kWhat), 0);
}

TEST(ParseTime, ManyDigitsStayExact) {
  EXPECT_EQ(parse_time("0.123456789012345678901234ms", kWhat), 123'456'789);
  EXPECT_EQ(parse_time("1000000.000000000001s", kWhat), 1'000'000'000'000'000'000);
}

TEST(ParseTime, Errors) {
  for (const char* bad :
       {"abc", "-1us", "5 parsecs", "", "us", "1.5 u s", "1..5us", ".", "1e400"}) {
    const std::string message = error_of([&] { parse_time(bad, kWhat); });
    EXPECT_TRUE(contains(message, kWhat)) << "'" << bad << "': " << message;
    EXPECT_TRUE(contains(message, "1.5us")) << "'" << bad << "': " << message;
  }
  EXPECT_TRUE(contains(error_of([] { parse_time("-1us", kWhat); }), "negative"));
  EXPECT_TRUE(contains(error_of([] { parse_time("5 parsecs", kWhat); }), "parsecs"));
  EXPECT_TRUE(contains(error_of([] { parse_time("5 parsecs", kWhat); }), "MPISIM_TEST=5 parsecs"));
}

TEST(ParseTime, TooLargeForTheClock) {
  EXPECT_TRUE(contains(error_of([] { parse_time("1e7s", kWhat); }), "too large"));
  EXPECT_TRUE(contains(error_of([] { parse_time("99999999999999999999s", kWhat); }), "too large"));
}

TEST(ParseBandwidth, DecimalBinaryAndBits) {
  EXPECT_EQ(parse_bandwidth("35MB/s", kWhat), 35e6);
  EXPECT_EQ(parse_bandwidth("12.5GB/s", kWhat), 12.5e9);
  EXPECT_EQ(parse_bandwidth("1Gb/s", kWhat), 125e6);
  EXPECT_EQ(parse_bandwidth("100KiB/s", kWhat), 102400.0);
  EXPECT_EQ(parse_bandwidth("1MiB/s", kWhat), 1048576.0);
  EXPECT_EQ(parse_bandwidth("1kB/s", kWhat), 1000.0);
  EXPECT_EQ(parse_bandwidth("2TB/s", kWhat), 2e12);
  EXPECT_EQ(parse_bandwidth("8b/s", kWhat), 1.0);
  EXPECT_EQ(parse_bandwidth("1000", kWhat), 1000.0);
  EXPECT_EQ(parse_bandwidth("37e6", kWhat), 37e6);
}

TEST(ParseBandwidth, Errors) {
  for (const char* bad : {"abc", "0", "0MB/s", "-1MB/s", "35MB", "35 parsecs/s", "35mb/s"}) {
    const std::string message = error_of([&] { parse_bandwidth(bad, kWhat); });
    EXPECT_TRUE(contains(message, kWhat)) << "'" << bad << "': " << message;
    EXPECT_TRUE(contains(message, "35MB/s")) << "'" << bad << "': " << message;
  }
}

TEST(ParseSize, DecimalAndBinary) {
  EXPECT_EQ(parse_size("64KiB", kWhat), 65536u);
  EXPECT_EQ(parse_size("64KB", kWhat), 64000u);
  EXPECT_EQ(parse_size("4096", kWhat), 4096u);
  EXPECT_EQ(parse_size("4096B", kWhat), 4096u);
  EXPECT_EQ(parse_size("1MiB", kWhat), 1048576u);
  EXPECT_EQ(parse_size("8MiB", kWhat), 8u << 20);
  EXPECT_EQ(parse_size("1MB", kWhat), 1000000u);
  EXPECT_EQ(parse_size("2GiB", kWhat), 2ull << 30);
  EXPECT_EQ(parse_size("1GB", kWhat), 1000000000u);
  EXPECT_EQ(parse_size("1.5KiB", kWhat), 1536u);
  EXPECT_EQ(parse_size("0", kWhat), 0u);
}

TEST(ParseSize, Errors) {
  for (const char* bad : {"abc", "-1", "1.5B", "0.1KiB", "64 KiBs", "64k", "99999999999TiB"}) {
    const std::string message = error_of([&] { parse_size(bad, kWhat); });
    EXPECT_TRUE(contains(message, kWhat)) << "'" << bad << "': " << message;
    EXPECT_TRUE(contains(message, "64KiB")) << "'" << bad << "': " << message;
  }
  EXPECT_TRUE(contains(error_of([] { parse_size("1.5B", kWhat); }), "whole number"));
}

TEST(FormatTime, ExactAndReadable) {
  EXPECT_EQ(format_time(1'500'000), "1.5 us");
  EXPECT_EQ(format_time(40'000'000), "40 us");
  EXPECT_EQ(format_time(2'000'000'000), "2 ms");
  EXPECT_EQ(format_time(1'449'800'000), "1.4498 ms");
  EXPECT_EQ(format_time(1'234'567), "1.234567 us");
  EXPECT_EQ(format_time(7), "7 ps");
  EXPECT_EQ(format_time(0), "0 s");
  EXPECT_EQ(format_time(-1'500), "-1.5 ns");
  EXPECT_EQ(format_time(mpilite::kTimeInfinity), "infinite");
}

TEST(FormatTime, ParsesBack) {
  for (mpilite::SimTime t : {0LL, 1LL, 999LL, 1'500'000LL, 1'234'567'891'234LL, 987'654'321LL})
    EXPECT_EQ(parse_time(format_time(t), kWhat), t) << format_time(t);
}

TEST(FormatBandwidth, Readable) {
  EXPECT_EQ(format_bandwidth(12e9), "12 GB/s");
  EXPECT_EQ(format_bandwidth(37e6), "37 MB/s");
  EXPECT_EQ(format_bandwidth(12.5e9), "12.5 GB/s");
  EXPECT_EQ(format_bandwidth(500), "500 B/s");
  EXPECT_EQ(format_bandwidth(0), "infinite");
}

TEST(FormatSize, ExactUnitsOnly) {
  EXPECT_EQ(format_size(65536), "64 KiB");
  EXPECT_EQ(format_size(64000), "64 KB");
  EXPECT_EQ(format_size(8u << 20), "8 MiB");
  EXPECT_EQ(format_size(4096), "4 KiB");
  EXPECT_EQ(format_size(1536), "1536 B");
  EXPECT_EQ(format_size(0), "0 B");
  for (std::uint64_t bytes : {0ull, 1ull, 1536ull, 65536ull, 64000ull, 1ull << 62})
    EXPECT_EQ(parse_size(format_size(bytes), kWhat), bytes) << format_size(bytes);
}
