#include "memory_fit.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "config.hpp"
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

RankFloor rank_floor(bool state_in_stack, bool copied, std::size_t stack_size) {
  RankFloor f;
  f.state = sizeof(mpilite::Rank);
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  // A page-table page maps 2 MiB (512 entries of 8 bytes).
  f.stack = copied ? kParkedFrames + std::max<std::size_t>(stack_size / 512, 8)
                   : page - (state_in_stack ? f.state : 0);
  f.copied = copied;
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
      "{} of stack{}, {} of privatized globals), and this machine has {} available, enough "
      "for about {} ranks per host process; simulate fewer ranks, or spread them over host "
      "processes on several machines (docs/large-scale.md)",
      ranks, bytes(need), bytes(static_cast<double>(floor.total())), bytes(floor.state),
      bytes(floor.stack), floor.copied ? " copied out while blocked" : "", bytes(floor.globals),
      bytes(static_cast<double>(available)), available / floor.total());
}

bool copy_to_fit(std::uint64_t ranks, const RankFloor& in_place, std::uint64_t available) {
  return static_cast<double>(ranks) * static_cast<double>(in_place.total()) >
         0.75 * static_cast<double>(available);
}

void fit_ranks(Config& config) {
  if (const auto available = available_memory())
    fit_ranks(config, *available, protocols::launched_processes());
}

void fit_ranks(Config& config, std::uint64_t available, int hosts) {
  const std::uint64_t share = (static_cast<std::uint64_t>(config.ranks) + hosts - 1) / hosts;
#if !defined(MPISIM_ASAN) // which cannot copy stacks
  // Asked to keep each rank's state in its stack, the stacks cannot be copied.
  if (config.stack_copy == StackCopy::Auto && !config.copy_stacks &&
      config.rank_state != RankState::Stack &&
      copy_to_fit(share, rank_floor(config.state_in_stack), available)) {
    config.copy_stacks = true;
    config.shared_stacks = true;   // which needs no kernel guard regions
    config.state_in_stack = false; // a parked stack's pages hold no memory
  }
#endif
  const RankFloor floor = rank_floor(config.state_in_stack, config.copy_stacks, config.stack_size);
  if (const auto refusal = ranks_do_not_fit(share, floor, available)) throw ConfigError(*refusal);
}

} // namespace mpisim
