// Parsing of values with units, as users write them in MPISIM_* variables and mpisimrun options.
#pragma once

#include <cstdint>
#include <string>

#include "config_error.hpp"
#include "sim_time.hpp"

namespace mpisim {

/// "1.5us", "40us", "2ms", "1s", "250ns", "7ps", "0". A bare number is seconds.
/// Throws ConfigError (naming `what`) on anything else or a negative value.
mpilite::SimTime parse_time(const std::string& text, const std::string& what);

/// "35MB/s", "12.5GB/s", "1Gb/s" (bits), "100KiB/s"; decimal K/M/G/T, binary Ki/Mi/Gi/Ti;
/// a bare number is bytes per second. Returns bytes per second (> 0).
double parse_bandwidth(const std::string& text, const std::string& what);

/// "64KiB", "4096", "1MiB", "64KB" (decimal), "8MiB". Returns bytes.
std::uint64_t parse_size(const std::string& text, const std::string& what);

/// Human-readable forms used in the report: "1.5 us", "12 GB/s", "64 KiB".
std::string format_time(mpilite::SimTime t);
std::string format_bandwidth(double bytes_per_second);
std::string format_size(std::uint64_t bytes);

} // namespace mpisim
