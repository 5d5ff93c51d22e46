// Numbers are read as a decimal significand and a power of ten, not through strtod, so that a
// setting such as "0.1us" is exactly the picoseconds the user wrote: predictions are checked to
// the picosecond, and a rounding error in a latency would show up in every message. Bandwidths,
// being doubles, are rounded once at the end.
#include "units.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "config_error.hpp"

namespace mpisim {
namespace {

using mpilite::kTimeInfinity;
using mpilite::SimTime;

/// value = significand * 10^exponent
struct Decimal {
  std::uint64_t significand = 0;
  int exponent = 0;
};

/// A unit as a factor 10^exp10 * multiplier.
struct Unit {
  std::string_view name;
  int exp10;
  std::uint64_t multiplier;
};

/// What a kind of value is called in messages and how valid values look.
struct Kind {
  std::string_view noun;
  std::string_view examples;
};

constexpr Kind kTimeKind{"time", "1.5us, 40us, 2ms, 250ns, 7ps, 0 (a bare number is seconds)"};
constexpr Kind kBandwidthKind{
    "bandwidth", "35MB/s, 12.5GB/s, 1Gb/s (bits), 100KiB/s (a bare number is bytes per second)"};
constexpr Kind kSizeKind{"size", "4096, 64KiB, 8MiB, 64KB (decimal), 1GB"};

// Both the micro sign and the Greek mu: they look the same, so users type either.
constexpr std::array kTimeUnits{
    Unit{"", 12, 1},       Unit{"s", 12, 1},      Unit{"ms", 9, 1}, Unit{"us", 6, 1},
    Unit{"\u00b5s", 6, 1}, Unit{"\u03bcs", 6, 1}, Unit{"ns", 3, 1}, Unit{"ps", 0, 1},
};

constexpr std::array kPrefixes{
    Unit{"", 0, 1},
    Unit{"K", 3, 1},
    Unit{"k", 3, 1},
    Unit{"M", 6, 1},
    Unit{"G", 9, 1},
    Unit{"T", 12, 1},
    Unit{"Ki", 0, 1ULL << 10},
    Unit{"Mi", 0, 1ULL << 20},
    Unit{"Gi", 0, 1ULL << 30},
    Unit{"Ti", 0, 1ULL << 40},
};

// Digits beyond this are below any precision that matters and would overflow the significand.
constexpr std::uint64_t kSignificandRoom = 100'000'000'000'000'000ULL;
// Keeps the scaling loops short; such exponents overflow or vanish anyway.
constexpr int kExponentClamp = 400;

[[noreturn]] void fail(const Kind& kind, const std::string& what, const std::string& text,
                       std::string_view reason) {
  throw ConfigError(fmt::format("{}={} is not a valid {}: {}; examples of valid values: {}", what,
                                text, kind.noun, reason, kind.examples));
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

void add_digit(Decimal& d, char c, bool fraction) {
  if (d.significand < kSignificandRoom) {
    d.significand = d.significand * 10 + static_cast<std::uint64_t>(c - '0');
    if (fraction) --d.exponent;
  } else if (!fraction) {
    ++d.exponent;
  }
}

/// Consumes "[+-]digits" after an 'e'; leaves `s` untouched when there is no exponent.
int take_exponent(std::string_view& s) {
  if (s.size() < 2 || (s[0] != 'e' && s[0] != 'E')) return 0;
  std::size_t i = 1;
  const bool negative = s[i] == '-';
  if (s[i] == '-' || s[i] == '+') ++i;
  if (i >= s.size() || !is_digit(s[i])) return 0;
  int value = 0;
  for (; i < s.size() && is_digit(s[i]); ++i)
    value = std::min(value * 10 + (s[i] - '0'), kExponentClamp);
  s.remove_prefix(i);
  return negative ? -value : value;
}

/// Consumes "digits[.digits][e[+-]digits]" from the front of `s`.
std::optional<Decimal> take_decimal(std::string_view& s) {
  Decimal d;
  std::size_t i = 0;
  std::size_t digits = 0;
  bool fraction = false;
  for (; i < s.size(); ++i) {
    if (s[i] == '.' && !fraction) {
      fraction = true;
    } else if (is_digit(s[i])) {
      add_digit(d, s[i], fraction);
      ++digits;
    } else {
      break;
    }
  }
  if (digits == 0) return std::nullopt;
  s.remove_prefix(i);
  d.exponent = std::clamp(d.exponent + take_exponent(s), -kExponentClamp, kExponentClamp);
  return d;
}

/// Splits `text` into a non-negative number and the unit after it (spaces between are allowed).
std::pair<Decimal, std::string_view> split(const Kind& kind, const std::string& what,
                                           const std::string& text) {
  std::string_view s = trim(text);
  if (!s.empty() && s[0] == '-') fail(kind, what, text, "negative values are not allowed");
  const auto number = take_decimal(s);
  if (!number) fail(kind, what, text, "it does not start with a number");
  return {*number, trim(s)};
}

template <std::size_t N>
std::optional<Unit> find_unit(const std::array<Unit, N>& units, std::string_view name) {
  for (const Unit& u : units)
    if (u.name == name) return u;
  return std::nullopt;
}

/// One of kPrefixes followed by `suffix`, or nothing at all (the bare number case).
std::optional<Unit> find_prefixed_unit(std::string_view unit, std::string_view suffix) {
  if (unit.empty()) return kPrefixes[0];
  if (!unit.ends_with(suffix)) return std::nullopt;
  unit.remove_suffix(suffix.size());
  return find_unit(kPrefixes, unit);
}

enum class Rounding { Nearest, Exact };

/// d * unit as an integer; nullopt on overflow, or on a fraction when `rounding` is Exact.
std::optional<std::uint64_t> scale(Decimal d, const Unit& unit, Rounding rounding) {
  std::uint64_t v = 0;
  if (__builtin_mul_overflow(d.significand, unit.multiplier, &v)) return std::nullopt;
  int e = d.exponent + unit.exp10;
  for (; e > 0 && v != 0; --e)
    if (__builtin_mul_overflow(v, std::uint64_t{10}, &v)) return std::nullopt;
  if (e >= 0) return v;
  // 10^20 exceeds any uint64 value, so the quotient is 0 and v is less than half the divisor.
  if (-e >= 20)
    return v == 0 || rounding == Rounding::Nearest ? std::optional<std::uint64_t>(0) : std::nullopt;
  std::uint64_t divisor = 1;
  for (int i = 0; i < -e; ++i)
    divisor *= 10;
  const std::uint64_t quotient = v / divisor;
  const std::uint64_t remainder = v % divisor;
  if (rounding == Rounding::Exact) return remainder == 0 ? std::optional(quotient) : std::nullopt;
  return quotient + (remainder >= divisor - remainder ? 1 : 0);
}

double power_of_ten(int e) {
  // Powers up to 10^22 are exact doubles; one multiplication or division then rounds once.
  constexpr std::array<double, 23> exact{1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const int magnitude = e < 0 ? -e : e;
  return magnitude < static_cast<int>(exact.size()) ? exact[static_cast<std::size_t>(magnitude)]
                                                    : std::pow(10.0, magnitude);
}

double to_double(Decimal d, const Unit& unit) {
  const int e = d.exponent + unit.exp10;
  const double mantissa = static_cast<double>(d.significand) * static_cast<double>(unit.multiplier);
  return e >= 0 ? mantissa * power_of_ten(e) : mantissa / power_of_ten(e);
}

/// "1.25" for 125 and 100: exact, trailing zeros dropped.
std::string exact_quotient(std::uint64_t value, std::uint64_t unit, int unit_digits) {
  const std::uint64_t whole = value / unit;
  const std::uint64_t rest = value % unit;
  if (rest == 0) return fmt::format("{}", whole);
  std::string fraction = fmt::format("{:0{}}", rest, unit_digits);
  fraction.erase(fraction.find_last_not_of('0') + 1);
  return fmt::format("{}.{}", whole, fraction);
}

} // namespace

SimTime parse_time(const std::string& text, const std::string& what) {
  const auto [number, unit_name] = split(kTimeKind, what, text);
  const auto unit = find_unit(kTimeUnits, unit_name);
  if (!unit) fail(kTimeKind, what, text, fmt::format("unknown unit '{}'", unit_name));
  const auto ps = scale(number, *unit, Rounding::Nearest);
  if (!ps || *ps > static_cast<std::uint64_t>(mpilite::kTimeLimit))
    fail(kTimeKind, what, text,
         fmt::format("too large (the largest time is {}, the limit of simulated time)",
                     format_time(mpilite::kTimeLimit)));
  return static_cast<SimTime>(*ps);
}

double parse_bandwidth(const std::string& text, const std::string& what) {
  const auto [number, unit_name] = split(kBandwidthKind, what, text);
  const auto bytes_unit = find_prefixed_unit(unit_name, "B/s");
  const auto bits_unit = find_prefixed_unit(unit_name, "b/s");
  if (!bytes_unit && !bits_unit)
    fail(kBandwidthKind, what, text, fmt::format("unknown unit '{}'", unit_name));
  const double value =
      bytes_unit ? to_double(number, *bytes_unit) : to_double(number, *bits_unit) / 8;
  if (!(value > 0)) fail(kBandwidthKind, what, text, "it must be greater than zero");
  if (!std::isfinite(value)) fail(kBandwidthKind, what, text, "it is too large");
  return value;
}

std::uint64_t parse_size(const std::string& text, const std::string& what) {
  const auto [number, unit_name] = split(kSizeKind, what, text);
  const auto unit = find_prefixed_unit(unit_name, "B");
  if (!unit) fail(kSizeKind, what, text, fmt::format("unknown unit '{}'", unit_name));
  const auto bytes = scale(number, *unit, Rounding::Exact);
  if (!bytes) {
    const bool overflow = !scale(number, *unit, Rounding::Nearest);
    fail(kSizeKind, what, text, overflow ? "it is too large" : "it is not a whole number of bytes");
  }
  return *bytes;
}

std::string format_time(SimTime t) {
  if (t >= kTimeInfinity) return "infinite";
  if (t <= -kTimeInfinity) return "-infinite";
  if (t < 0) return "-" + format_time(-t);
  if (t == 0) return "0 s";
  struct Scale {
    SimTime picos;
    int digits;
    std::string_view name;
  };
  constexpr std::array scales{Scale{1'000'000'000'000, 12, "s"}, Scale{1'000'000'000, 9, "ms"},
                              Scale{1'000'000, 6, "us"}, Scale{1'000, 3, "ns"}, Scale{1, 0, "ps"}};
  // The last scale (1 ps) always matches because t > 0.
  const Scale& s = *std::find_if(scales.begin(), scales.end(),
                                 [t](const Scale& candidate) { return t >= candidate.picos; });
  return fmt::format(
      "{} {}",
      exact_quotient(static_cast<std::uint64_t>(t), static_cast<std::uint64_t>(s.picos), s.digits),
      s.name);
}

std::string format_bandwidth(double bytes_per_second) {
  if (!(bytes_per_second > 0) || std::isinf(bytes_per_second)) return "infinite";
  constexpr std::array<std::pair<double, std::string_view>, 4> scales{
      {{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "KB/s"}}};
  for (const auto& [factor, name] : scales)
    if (bytes_per_second >= factor)
      return fmt::format("{:.6g} {}", bytes_per_second / factor, name);
  return fmt::format("{:.6g} B/s", bytes_per_second);
}

std::string format_size(std::uint64_t bytes) {
  // Only exact multiples get a unit, so the text always parses back to the same number.
  constexpr std::array<std::pair<std::uint64_t, std::string_view>, 8> scales{
      {{1ULL << 40, "TiB"},
       {1ULL << 30, "GiB"},
       {1ULL << 20, "MiB"},
       {1ULL << 10, "KiB"},
       {1'000'000'000'000ULL, "TB"},
       {1'000'000'000ULL, "GB"},
       {1'000'000ULL, "MB"},
       {1'000ULL, "KB"}}};
  for (const auto& [factor, name] : scales)
    if (bytes >= factor && bytes % factor == 0) return fmt::format("{} {}", bytes / factor, name);
  return fmt::format("{} B", bytes);
}

} // namespace mpisim
