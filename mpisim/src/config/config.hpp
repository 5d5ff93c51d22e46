// Settings of one simulation: every MPISIM_* environment variable, parsed and validated.
#pragma once

#include <algorithm>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "config_error.hpp"
#include "machine.hpp"
#include "protocol_registry.hpp"
#include "sim_time.hpp"

namespace mpisim {

using mpilite::SimTime;

enum class CpuMode { Measured, Off };
/// MPISIM_STACK_COPY; Auto is Shared from kStackCopyRanks ranks per host process. On parks a
/// blocked rank's stack in place behind kernel guard regions; Shared runs the ranks on
/// kSharedStacks stacks and copies a rank in and out of its shared stack.
enum class StackCopy { Auto, On, Shared, Off };
/// MPISIM_RANK_STATE; Auto is Stack from kRankStateInStackRanks ranks per host process.
enum class RankState { Auto, Stack, Heap };
enum class Lookahead { Static, Dynamic };
/// MPISIM_EPOCH: what a rank's real-time clocks (time, gettimeofday) read at simulated time 0.
/// Auto is Fixed with CpuMode::Off (a reproducible run) and Launch otherwise.
enum class CalendarEpoch { Auto, Launch, Fixed, Date };

/// One MPISIM_* variable: the single table behind validation, mpisimrun --help and docs.
struct VariableInfo {
  const char* name;          ///< e.g. "MPISIM_RANKS"
  const char* option;        ///< mpisimrun option, e.g. "-np"
  const char* meaning;       ///< one line
  const char* default_value; ///< as shown to users
  const char* allowed;       ///< allowed values or value syntax
  /// Non-null: the mpisimrun option is a flag, given without a value, that sets this one.
  const char* flag_value = nullptr;
};

/// Every variable mpisim knows, in documentation order.
const std::vector<VariableInfo>& variables();

/// The entry of `variables()` called `name`, or nullptr.
const VariableInfo* find_variable(const std::string& name);

/// "MPISIM_RANKS, MPISIM_HOSTS, ...": every variable name, in table order.
std::string variable_names();

/// The table of `variables()` as text (option, variable, default, meaning, allowed values),
/// for mpisimrun --help and for error messages of the runtime.
std::string describe_variables();
/// The same table in Markdown, as docs/configuration.md holds it (a test keeps the two equal).
std::string describe_variables_markdown();

struct Config {
  int ranks = 1;
  int hosts = 1; ///< MPISIM_HOSTS as given to mpisimrun; the runtime asks MPICH for the real count
  std::string map = "block";
  /// A name of the protocols room's registry (protocol_registry.hpp).
  std::string protocol{protocols::kDefaultProtocol};
  bool det = true;
  std::string det_profile_path;   ///< MPISIM_DET_PROFILE (empty: none)
  std::optional<SimTime> quantum; ///< unset: the machine's smallest latency
  Lookahead lookahead = Lookahead::Dynamic;
  MachineParams machine; ///< preset or file (MPISIM_MACHINE) with MPISIM_LATENCY etc. applied
  CpuMode cpu = CpuMode::Measured;
  /// MPISIM_STACK; when it is not set, from_environment() takes default_stack_size() for the
  /// ranks of a host process.
  std::size_t stack_size = 256 * 1024;
  bool stack_given = false; ///< MPISIM_STACK was set
  StackCopy stack_copy = StackCopy::Auto;
  /// Whether blocked ranks' stacks are copied out: MPISIM_STACK_COPY, or for Auto
  /// default_stack_copy() for the ranks of a host process.
  bool copy_stacks = false;
  /// With copy_stacks: the ranks share kSharedStacks stacks (StackCopy::Shared).
  bool shared_stacks = false;
  RankState rank_state = RankState::Auto;
  /// Whether each rank's state is to live at the top of its stack (mpilite::World):
  /// MPISIM_RANK_STATE, or for Auto from kRankStateInStackRanks ranks per host process; never
  /// with copying.
  bool state_in_stack = false;
  std::string report_path;
  std::string trace_path;
  std::string comm_matrix_path;
  std::string record_path;
  std::optional<SimTime> wall_limit; ///< MPISIM_WALL_LIMIT: host wall time, unset: none
  /// MPISIM_OWN_CODE_NOTE: host wall time a rank runs its own code before the note; unset: off.
  std::optional<SimTime> own_code_note = SimTime{30} * mpilite::kPicosPerSecond;
  /// MPISIM_MEMORY_RESERVE: the run ends once the machine has less memory left (0: never).
  std::uint64_t memory_reserve = std::uint64_t{256} << 20;
  std::optional<SimTime> time_limit; ///< MPISIM_TIME_LIMIT: simulated time, unset: none
  bool progress = true;              ///< MPISIM_PROGRESS: a progress line during long runs
  /// The report's ASCII timeline (up to 64 ranks): a program that runs a simulation and shows
  /// no report turns it off, and then pays nothing for it.
  bool timeline = true;
  /// MPISIM_AUTO_SHARED_MALLOC: fold ranks' allocations of at least this many bytes (0: off).
  std::size_t auto_shared_malloc = 0;
  bool sampling = true;            ///< MPISIM_SAMPLING: skip sampled bodies once they have enough
  bool sampling_report = false;    ///< MPISIM_SAMPLING_REPORT: list the sampled sites in the report
  bool critical_path = false;      ///< MPISIM_CRITICAL_PATH: the critical path in the report
  bool fresh_heap = true;          ///< MPISIM_FRESH_HEAP: malloc'd memory reads as zero
  bool simulated_libc_time = true; ///< MPISIM_LIBC_TIME: sleep and clocks of libc simulated
  CalendarEpoch epoch = CalendarEpoch::Auto; ///< MPISIM_EPOCH
  std::int64_t epoch_date_s = 0;             ///< CalendarEpoch::Date: seconds since 1970, UTC
  /// The MPISIM_* variables that were set, as (name, value), for the report.
  std::vector<std::pair<std::string, std::string>> given;

  /// Reads and validates all MPISIM_* variables of `envp` (a null-terminated environ array).
  /// Throws ConfigError for an unknown MPISIM_* name or a bad value.
  static Config from_environment(char** envp);
};

/// The communication matrix MPISIM_MAP=auto maps from: FILE of "auto:FILE", MPISIM_COMM_MATRIX
/// for plain "auto" (which may not exist yet), "" for the other maps.
std::string auto_map_matrix(const Config& c);

/// How much a host process's stacks may reserve by default: 64 GiB of address space. Under
/// AddressSanitizer a fiber's whole stack gets shadow memory once it runs (an eighth of its
/// size, resident), so the sanitized build allows 512 MiB.
#if defined(MPISIM_ASAN)
inline constexpr std::size_t kStackReservation = std::size_t{512} << 20;
#else
inline constexpr std::size_t kStackReservation = std::size_t{64} << 30;
#endif

/// The stack a rank gets by default with `ranks_per_host` ranks on a host process: 8 MiB, what
/// an MPICH process has (reserved, and committed only where touched), halved while the stacks of
/// the host process would reserve more than kStackReservation, down to 256 KiB. Beyond that,
/// each rank's touched pages, and the page tables that map them, are what memory holds.
std::size_t default_stack_size(long ranks_per_host);

/// From this many ranks per host process, MPISIM_STACK_COPY=auto copies stacks into shared stacks
/// (and below it where memory asks for it: fit_ranks()): a blocked rank then holds the used part
/// of its stack on the heap (about 600 bytes in MPI_Recv) instead of its touched page (4 KiB).
/// A million-rank ring then fits in 1.9 GiB instead of 4.6 GiB, in less wall time than with its
/// stacks in place (docs/performance.md, Shared stacks).
inline constexpr long kStackCopyRanks = 1'000'000;

/// How many stacks the ranks of a host process share when stacks are copied into shared stacks
/// (mpilite::StackPoolOptions::shared_slots): 1 024, so that a rank that blocks and runs again
/// before 1 023 other ranks ran finds its stack still in place, while the stacks' pages (what the
/// deepest of their ranks touched) stay a few MiB; an eighth of the ranks below 8 192, so that a
/// small run with MPISIM_STACK_COPY=shared shares its stacks too, as the tests need.
inline std::size_t shared_stack_count(std::size_t ranks_per_host) {
  return std::clamp<std::size_t>(ranks_per_host / 8, 1, 1024);
}

/// Whether ranks' stacks are copied out by default with `ranks_per_host` ranks on a host
/// process: from kStackCopyRanks on, never in the sanitized build.
bool default_stack_copy(long ranks_per_host);

/// From this many ranks per host process, MPISIM_RANK_STATE=auto puts each rank's state (about
/// 1 KiB) at the top of its stack, in the page its first frames touch anyway, rather than on
/// the heap: a million blocked ranks then take 5.0 GiB instead of 5.9 GiB. Below, the states
/// stay packed on the heap, where they share the caches better: a page apart, every rank's
/// state falls on the same few cache sets (NPB CG at 256 ranks: 4 % more L2 misses, a few
/// percent slower). The same count from which the default stacks are 256 KiB.
inline constexpr long kRankStateInStackRanks = 262'144;

} // namespace mpisim
