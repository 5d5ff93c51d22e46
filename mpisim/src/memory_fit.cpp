#include "memory_fit.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "config_error.hpp"
#include "privatization.hpp"
#include "rank.hpp"
#include "transport.hpp"

namespace mpisim {
namespace {

// Segments from this size on are mapped and cost nothing until touched (privatization.cpp).
constexpr std::size_t kLazySegment = std::size_t{1} << 20;

std::string bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (b >= 1024 && u < 5) {
    b /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", b) : fmt::format("{:.1f} {}", b, units[u]);
}

/// A number from a one-value file ("max" or absent: none).
std::optional<std::uint64_t> read_number(const char* path) {
  std::ifstream in(path);
  std::uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

} // namespace

RankFloor rank_floor(bool state_in_stack) {
  RankFloor f;
  f.state = sizeof(mpilite::Rank);
  f.stack = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) - (state_in_stack ? f.state : 0);
  const std::size_t segment = mpilite::private_segment_size();
  f.globals = segment < kLazySegment ? segment : 0;
  return f;
}

std::optional<std::uint64_t> available_memory() {
  std::optional<std::uint64_t> available;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream words(line);
    std::string key;
    std::uint64_t kib = 0;
    if (words >> key >> kib && key == "MemAvailable:") available = kib * 1024;
  }
  // A container's limit (cgroup v2) may be below what the machine has.
  const auto limit = read_number("/sys/fs/cgroup/memory.max");
  const auto used = read_number("/sys/fs/cgroup/memory.current");
  if (limit && used && *limit > *used && (!available || *limit - *used < *available))
    available = *limit - *used;
  return available;
}

std::optional<std::string> ranks_do_not_fit(std::uint64_t ranks, const RankFloor& floor,
                                            std::uint64_t available) {
  const double need = static_cast<double>(ranks) * static_cast<double>(floor.total());
  if (need <= static_cast<double>(available)) return std::nullopt;
  return fmt::format(
      "{} ranks per host process need at least {} of memory ({} each: {} of rank state, "
      "{} of stack, {} of privatized globals), and this machine has {} available, enough "
      "for about {} ranks per host process; simulate fewer ranks, or spread them over host "
      "processes on several machines (docs/large-scale.md)",
      ranks, bytes(need), bytes(static_cast<double>(floor.total())), bytes(floor.state),
      bytes(floor.stack), bytes(floor.globals), bytes(static_cast<double>(available)),
      available / floor.total());
}

void check_ranks_fit(int ranks, bool state_in_stack) {
  const auto available = available_memory();
  if (!available) return;
  const int hosts = protocols::launched_processes();
  const std::uint64_t share = (static_cast<std::uint64_t>(ranks) + hosts - 1) / hosts;
  if (const auto refusal = ranks_do_not_fit(share, rank_floor(state_in_stack), *available))
    throw ConfigError(*refusal);
}

} // namespace mpisim
