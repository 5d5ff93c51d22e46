// The one table of MPISIM_* variables drives validation, mpisimrun's options and its --help, so a
// variable cannot be documented without being parsed, or parsed without being documented.
#include "config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "machine_file.hpp"
#include "network_model.hpp"
#include "protocol_registry.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

constexpr const char* kDefaultMachine = "cluster";
constexpr std::size_t kMinStack = 16 * 1024;
constexpr std::size_t kStackGranule = 4096;

template <class Range> std::string join(const Range& items) {
  return fmt::format("{}", fmt::join(items, ", "));
}

[[noreturn]] void invalid(const VariableInfo& v, const std::string& value,
                          std::string_view reason = {}) {
  throw ConfigError(fmt::format("{}={} is not valid{}{}; allowed: {}", v.name, value,
                                reason.empty() ? "" : ": ", reason, v.allowed));
}

/// Maps the i-th name of `v.allowed` ("a, b, c") to the i-th of `values`, so that the table's
/// text is the only spelling of the names.
template <class T>
T pick(const VariableInfo& v, const std::string& value, std::initializer_list<T> values) {
  std::string_view names = v.allowed;
  for (const T& result : values) {
    const auto comma = names.find(", ");
    if (names.substr(0, comma) == value) return result;
    if (comma == std::string_view::npos) break;
    names.remove_prefix(comma + 2);
  }
  invalid(v, value);
}

int positive_int(const VariableInfo& v, const std::string& value) {
  int n = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (error == std::errc::result_out_of_range) invalid(v, value, "too large");
  if (error != std::errc{} || end != value.data() + value.size() || n <= 0) invalid(v, value);
  return n;
}

SimTime positive_time(const VariableInfo& v, const std::string& value) {
  const SimTime t = parse_time(value, v.name);
  if (t <= 0) invalid(v, value, "it must be greater than zero");
  return t;
}

std::size_t stack_size(const VariableInfo& v, const std::string& value) {
  const std::uint64_t bytes = parse_size(value, v.name);
  if (bytes < kMinStack) invalid(v, value, "smaller than 16 KiB");
  if (bytes > std::numeric_limits<std::size_t>::max() - kStackGranule)
    invalid(v, value, "too large");
  return (bytes + kStackGranule - 1) / kStackGranule * kStackGranule;
}

/// Seconds since 1970 of "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SS" (an optional trailing Z), UTC.
std::int64_t utc_date(const VariableInfo& v, const std::string& value) {
  std::tm tm{};
  int used = 0;
  const char* p = value.c_str();
  if (std::sscanf(p, "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &used) != 3)
    invalid(v, value, "not a date");
  p += used;
  if (*p == 'T') {
    used = 0;
    if (std::sscanf(p, "T%2d:%2d:%2d%n", &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 3 ||
        used == 0)
      invalid(v, value, "not a time of day");
    p += used;
  }
  if (*p == 'Z') ++p;
  if (*p != 0) invalid(v, value, "not a date");
  const std::tm given = tm;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const time_t t = timegm(&tm);
  // timegm normalizes 2024-02-30 into March: a date it changed does not exist.
  if (tm.tm_year + 1900 != given.tm_year || tm.tm_mon + 1 != given.tm_mon ||
      tm.tm_mday != given.tm_mday || tm.tm_hour != given.tm_hour || tm.tm_min != given.tm_min ||
      tm.tm_sec != given.tm_sec || t < 0)
    invalid(v, value, "no such date since 1970");
  return static_cast<std::int64_t>(t);
}

std::size_t size_or_off(const VariableInfo& v, const std::string& value) {
  if (value == "off") return 0;
  // A word other than off is a typo of it, not a size: say what is allowed.
  if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0]))) invalid(v, value);
  const std::uint64_t bytes = parse_size(value, v.name);
  if (bytes == 0) invalid(v, value, "it must be greater than zero (or off)");
  if (bytes > std::numeric_limits<std::size_t>::max()) invalid(v, value, "too large");
  return static_cast<std::size_t>(bytes);
}

/// A time > 0, or "off" (unset).
std::optional<SimTime> time_or_off(const VariableInfo& v, const std::string& value) {
  if (value == "off") return std::nullopt;
  return positive_time(v, value);
}

std::string map_setting(const VariableInfo& v, const std::string& value) {
  if (value == "block" || value == "cyclic" || value == "auto") return value;
  if (value.starts_with("auto:")) {
    const std::string matrix = value.substr(5);
    if (matrix.empty()) invalid(v, value, "auto: needs the file of a communication matrix");
    if (!std::filesystem::is_regular_file(matrix))
      throw ConfigError(fmt::format(
          "{}={}: no such communication matrix {}; record one with a run of the same program "
          "with MPISIM_COMM_MATRIX={} (--comm-matrix), on any number of host processes",
          v.name, value, matrix, matrix));
    return value;
  }
  // A typo such as "blok" must not silently become a file name.
  if (!std::filesystem::is_regular_file(value)) invalid(v, value, "no such map file");
  return value;
}

/// Plain MPISIM_MAP=auto maps from the matrix the run writes: without one it has nothing to read.
void check_map(const Config& c) {
  if (c.map != "auto" || !c.comm_matrix_path.empty()) return;
  throw ConfigError(
      "MPISIM_MAP=auto maps from the communication matrix MPISIM_COMM_MATRIX names, and it is not "
      "set: add MPISIM_COMM_MATRIX=FILE (--comm-matrix FILE; a run without FILE uses the block "
      "map and records it, the next runs map from it), or give MPISIM_MAP=auto:FILE with a "
      "matrix recorded earlier");
}

using Apply = void (*)(Config&, const VariableInfo&, const std::string&);

struct Variable {
  VariableInfo info;
  Apply apply;                     ///< for the variables of the simulation
  const MachineKey* key = nullptr; ///< for the variables that override a machine parameter
};

/// The variables of the simulation before MPISIM_MACHINE, MPISIM_MACHINE, the machine's
/// parameters (which must come after it: they override its values), then the rest.
std::vector<Variable> with_machine_keys(std::vector<Variable> before, Variable machine,
                                        std::vector<Variable> after) {
  before.push_back(std::move(machine));
  for (const MachineKey& k : machine_keys())
    if (k.variable)
      before.push_back(
          {{k.variable, k.option, k.meaning, "from the machine", k.allowed}, nullptr, &k});
  before.insert(before.end(), after.begin(), after.end());
  return before;
}

const std::vector<Variable>& table() {
  static const std::string machines =
      "a preset (" + join(machine_preset_names()) + ") or the path of a machine file";
  static const std::string protocol_names = protocols::ProtocolRegistry::names();
  static const std::string protocol_meaning = [] {
    std::string m = "synchronization protocol between host processes";
    for (const auto& p : protocols::ProtocolRegistry::all())
      m += fmt::format("; {}: {}", p.name, p.description);
    return m;
  }();
  static const std::vector<Variable> all = with_machine_keys(
      {
          {{"MPISIM_RANKS", "-np", "number of target ranks (the size of MPI_COMM_WORLD)", "1",
            "a positive integer"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.ranks = positive_int(v, s);
           }},
          {{"MPISIM_HOSTS", "-hosts",
            "host processes that run the simulation (under mpiexec if > 1)", "1",
            "a positive integer"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.hosts = positive_int(v, s);
           }},
          {{"MPISIM_MAP", "--map", "which host process simulates which rank", "block",
            "block, cyclic, auto:FILE (cut messages between host processes, from the "
            "communication matrix FILE of an earlier run), auto (the same from "
            "MPISIM_COMM_MATRIX's file, which a run without it records on the block map), or "
            "the path of a map file"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.map = map_setting(v, s);
           }},
          {{"MPISIM_PROTOCOL", "--protocol", protocol_meaning.c_str(),
            protocols::kDefaultProtocol.data(), protocol_names.c_str()},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             if (!protocols::ProtocolRegistry::find(s)) invalid(v, s);
             c.protocol = s;
           }},
          {{"MPISIM_DET", "--det",
            "deterministic mode: receives that name their source complete without a time bound",
            "1", "0, 1"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.det = pick(v, s, {false, true});
           }},
          {{"MPISIM_DET_PROFILE", "--det-profile",
            "determinism of the second kind: a run without this file writes it (the sources of "
            "every tag that wildcard receives use); a run with it completes a wildcard receive "
            "whose tag has one source as if it named it, and checks that promise at every send",
            "", "a file path"},
           [](Config& c, const VariableInfo&, const std::string& s) { c.det_profile_path = s; }},
          {{"MPISIM_QUANTUM", "--quantum", "window of the quantum protocol",
            "the machine's smallest latency (Lmin)",
            "a time > 0 and <= the machine's smallest latency, e.g. 1us"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.quantum = positive_time(v, s);
           }},
          {{"MPISIM_LOOKAHEAD", "--lookahead", "how lookahead is computed", "dynamic",
            "static, dynamic"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.lookahead = pick(v, s, {Lookahead::Static, Lookahead::Dynamic});
           }},
      },
      {{"MPISIM_MACHINE", "--machine", "target machine model (docs/machines.md)", kDefaultMachine,
        machines.c_str()},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine = load_machine(s, v.name);
       }},
      {
          {{"MPISIM_CPU", "--cpu",
            "measured: charge host CPU time between MPI calls; off: charge none (reproducible)",
            "measured", "measured, off"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.cpu = pick(v, s, {CpuMode::Measured, CpuMode::Off});
           }},
          {{"MPISIM_STACK", "--stack", "stack size of each rank",
            "8MiB up to 8 192 ranks per host process, halved while the stacks would pass 64 GiB, "
            "down to 256KiB",
            "a size >= 16KiB, rounded up to 4 KiB, e.g. 256KiB, 8MiB"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.stack_size = stack_size(v, s);
             c.stack_given = true;
           }},
          {{"MPISIM_STACK_COPY", "--stack-copy",
            "copy each blocked rank's stack out to the heap, leaving no stack page resident "
            "(docs/large-scale.md, Stacks): less memory per rank; shared: the ranks run on 1 024 "
            "shared stacks and are copied in and out of them; on: each keeps its own stack, "
            "parked behind kernel guard regions (slower)",
            "auto: shared from 1 000 000 ranks per host process, or where stacks in place would "
            "take over three quarters of the available memory",
            "auto, on, shared, off"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.stack_copy =
                 pick(v, s, {StackCopy::Auto, StackCopy::On, StackCopy::Shared, StackCopy::Off});
#if defined(MPISIM_ASAN)
             if (c.stack_copy == StackCopy::On || c.stack_copy == StackCopy::Shared)
               invalid(v, s,
                       "the sanitized build cannot copy stacks (it would read the frames' "
                       "poisoned redzones and lose their shadow memory)");
#endif
           }},
          {{"MPISIM_RANK_STATE", "--rank-state",
            "where each rank's state (about 1 KiB) lives: at the top of its stack, in the page its "
            "first frames touch anyway (a kilobyte less per rank), or on the heap, packed (shares "
            "the caches better below a few hundred thousand ranks)",
            "auto: stack from 262 144 ranks per host process, unless stacks are copied",
            "auto, stack, heap"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.rank_state = pick(v, s, {RankState::Auto, RankState::Stack, RankState::Heap});
           }},
          {{"MPISIM_REPORT", "--report", "also write the report as JSON to this file", "",
            "a file path"},
           [](Config& c, const VariableInfo&, const std::string& s) { c.report_path = s; }},
          {{"MPISIM_TRACE", "--trace", "write a timeline (Chrome trace-event JSON) to this file",
            "", "a file path"},
           [](Config& c, const VariableInfo&, const std::string& s) { c.trace_path = s; }},
          {{"MPISIM_COMM_MATRIX", "--comm-matrix",
            "write messages and bytes per (source, destination) rank pair as CSV to this file", "",
            "a file path"},
           [](Config& c, const VariableInfo&, const std::string& s) { c.comm_matrix_path = s; }},
          {{"MPISIM_CRITICAL_PATH", "--critical-path",
            "find the chain of compute and messages that sets the predicted time, split into "
            "compute, overheads, latency, transfer, contention and waiting, with the ranks and "
            "calls that carry most of it, in the report (docs/observing.md); the option takes "
            "no value",
            "0", "0, 1", "1"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.critical_path = pick(v, s, {false, true});
           }},
          {{"MPISIM_RECORD", "--record",
            "record each rank's MPI operations and compute times in this directory, for "
            "mpisim-replay",
            "", "a directory path (created if missing)"},
           [](Config& c, const VariableInfo&, const std::string& s) { c.record_path = s; }},
          {{"MPISIM_WALL_LIMIT", "--wall-limit",
            "end the run, with its report and the running rank named, after this much host wall "
            "time (exit code 124)",
            "", "a time > 0, e.g. 30s, 600s"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.wall_limit = positive_time(v, s);
           }},
          {{"MPISIM_OWN_CODE_NOTE", "--own-code-note",
            "a note on stderr when a rank has run its own code this long (host wall time) "
            "without calling MPI: a rank that waits for memory another rank writes (a flag in a "
            "shared-memory window) never ends under mpisim, where another rank runs only when "
            "this one calls MPI; a long computation is fine",
            "30s", "off, or a time > 0, e.g. 5s, 600s"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.own_code_note = time_or_off(v, s);
           }},
          {{"MPISIM_MEMORY_RESERVE", "--memory-reserve",
            "end the run, with its report, when less memory than this is left on the machine "
            "(rather than have the kernel's out-of-memory killer end a process without a word; "
            "exit code 1)",
            "256MiB", "off, or a size > 0, e.g. 1GiB"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.memory_reserve = size_or_off(v, s);
           }},
          {{"MPISIM_TIME_LIMIT", "--time-limit",
            "end the run, with its report and the rank named, when a rank's simulated time "
            "passes this (exit code 124)",
            "", "a time > 0, e.g. 10s, 1ms"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.time_limit = positive_time(v, s);
           }},
          {{"MPISIM_PROGRESS", "--progress",
            "a progress line on stderr once a run takes more than 3 s (ranks finished, simulated "
            "time, messages)",
            "on", "on, off"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.progress = pick(v, s, {true, false});
           }},
          {{"MPISIM_AUTO_SHARED_MALLOC", "--auto-shared-malloc",
            "fold every block of at least this size that a rank allocates (malloc, calloc, "
            "realloc, new, Fortran ALLOCATE): all ranks' blocks from one call site share "
            "physical pages and their contents become garbage (docs/large-scale.md)",
            "off", "off, or a size > 0, e.g. 1MiB, 64MiB"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.auto_shared_malloc = size_or_off(v, s);
           }},
          {{"MPISIM_SAMPLING", "--sampling",
            "on: a MPISIM_SAMPLE_LOCAL/GLOBAL body is skipped and charged its mean once it has "
            "enough samples; off: every body runs (docs/large-scale.md)",
            "on", "on, off"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.sampling = pick(v, s, {true, false});
           }},
          {{"MPISIM_SAMPLING_REPORT", "--sampling-report",
            "list each MPISIM_SAMPLE_* site with its samples, skipped bodies, mean and standard "
            "deviation in the report (the JSON report always has them)",
            "off", "on, off"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.sampling_report = pick(v, s, {true, false});
           }},
          {{"MPISIM_FRESH_HEAP", "--fresh-heap",
            "memory a rank gets from malloc reads as zero, as a fresh process's heap does "
            "(docs/model.md, Memory)",
            "on", "on, off"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.fresh_heap = pick(v, s, {true, false});
           }},
          {{"MPISIM_LIBC_TIME", "--libc-time",
            "simulated: sleep, usleep, nanosleep advance the rank's clock and gettimeofday, "
            "clock_gettime, time, clock, getrusage read it (docs/model.md, Time); host: the "
            "host's clocks",
            "simulated", "simulated, host"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             c.simulated_libc_time = pick(v, s, {true, false});
           }},
          {{"MPISIM_EPOCH", "--epoch",
            "the calendar date a rank's time, gettimeofday and CLOCK_REALTIME read at simulated "
            "time 0 (docs/model.md, Time): launch (when the run started, one instant for every "
            "host process), fixed (2000-01-01T00:00:00Z, the same every run), or a UTC date; "
            "auto: fixed with --cpu off, launch otherwise",
            "auto", "auto, launch, fixed, or a UTC date, e.g. 2024-05-01 or 2024-05-01T12:00:00"},
           [](Config& c, const VariableInfo& v, const std::string& s) {
             if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) {
               c.epoch = CalendarEpoch::Date;
               c.epoch_date_s = utc_date(v, s);
               return;
             }
             c.epoch =
                 pick(v, s, {CalendarEpoch::Auto, CalendarEpoch::Launch, CalendarEpoch::Fixed});
           }},
      });
  return all;
}

const Variable* find_entry(std::string_view name) {
  const auto& all = table();
  const auto it = std::find_if(all.begin(), all.end(),
                               [name](const Variable& v) { return name == v.info.name; });
  return it == all.end() ? nullptr : &*it;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string upper(std::string_view s) {
  std::string result(s);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return result;
}

/// " (did you mean MPISIM_RANKS?)" when one name is within edit distance 2, ignoring case.
std::string suggestion(std::string_view name) {
  constexpr std::size_t kMaxDistance = 2;
  const VariableInfo* best = nullptr;
  std::size_t best_distance = kMaxDistance + 1;
  for (const VariableInfo& v : variables()) {
    const std::size_t d = edit_distance(upper(name), v.name);
    if (d < best_distance) {
      best = &v;
      best_distance = d;
    }
  }
  return best ? fmt::format(" (did you mean {}?)", best->name) : std::string();
}

/// Variables of the project's other tools, which the simulator leaves alone: MPISIM_APPS names
/// the application corpus the test suite builds (tests/apps/apps.py), and the tests' runs of
/// the simulator inherit it.
bool other_tools_variable(std::string_view name) {
  return name == "MPISIM_APPS";
}

/// The MPISIM_* entries of `envp` by name. The first of duplicates wins, as with getenv().
std::map<std::string, std::string> read_settings(char** envp) {
  std::map<std::string, std::string> settings;
  for (char** entry = envp; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    if (!text.starts_with("MPISIM_") || equals == std::string_view::npos) continue;
    const std::string name(text.substr(0, equals));
    if (other_tools_variable(name)) continue;
    if (!find_entry(name))
      throw ConfigError(fmt::format("unknown variable {}{}; the valid variables are: {}", name,
                                    suggestion(name), variable_names()));
    settings.emplace(name, std::string(text.substr(equals + 1)));
  }
  return settings;
}

/// The machine must hold the ranks, a network model exact on one host process only gets one, and
/// the quantum may not exceed the machine's smallest latency.
void check_machine(const Config& c, const std::map<std::string, std::string>& settings) {
  const LinkCosts network(c.machine, c.ranks);
  if (c.hosts > 1 && !find_network_model(c.machine.network)->several_hosts)
    throw ConfigError(fmt::format("MPISIM_NETWORK={} is only exact on one host process "
                                  "so far (docs/machines.md says why); use MPISIM_HOSTS=1, or "
                                  "MPISIM_NETWORK=latency on several",
                                  c.machine.network));
  if (!c.quantum || *c.quantum <= network.min_latency()) return;
  throw ConfigError(fmt::format(
      "MPISIM_QUANTUM={} is larger than the smallest latency of machine {} ({}): the quantum "
      "protocol is only exact with a window no larger than the smallest latency",
      settings.at("MPISIM_QUANTUM"), c.machine.name, format_time(network.min_latency())));
}

} // namespace

std::string auto_map_matrix(const Config& c) {
  if (c.map == "auto") return c.comm_matrix_path;
  return c.map.starts_with("auto:") ? c.map.substr(5) : std::string();
}

const std::vector<VariableInfo>& variables() {
  static const std::vector<VariableInfo> infos = [] {
    std::vector<VariableInfo> result;
    for (const Variable& v : table())
      result.push_back(v.info);
    return result;
  }();
  return infos;
}

const VariableInfo* find_variable(const std::string& name) {
  const Variable* entry = find_entry(name);
  return entry ? &entry->info : nullptr;
}

std::string variable_names() {
  std::vector<std::string_view> names;
  for (const VariableInfo& v : variables())
    names.emplace_back(v.name);
  return join(names);
}

std::string describe_variables() {
  std::size_t option_width = 0;
  std::size_t name_width = 0;
  for (const VariableInfo& v : variables()) {
    option_width = std::max(option_width, std::string_view(v.option).size());
    name_width = std::max(name_width, std::string_view(v.name).size());
  }
  std::string text = fmt::format("  {:<{}}  {:<{}}  {}\n", "OPTION", option_width, "VARIABLE",
                                 name_width, "DEFAULT");
  for (const VariableInfo& v : variables()) {
    const std::string_view default_value = *v.default_value ? v.default_value : "-";
    text += fmt::format("  {:<{}}  {:<{}}  {}\n", v.option, option_width, v.name, name_width,
                        default_value);
    text += fmt::format("      {}\n      allowed: {}\n", v.meaning, v.allowed);
  }
  return text;
}

std::string describe_variables_markdown() {
  std::string text =
      "| variable | mpisimrun option | meaning | default | allowed |\n|---|---|---|---|---|\n";
  for (const VariableInfo& v : variables())
    text += fmt::format("| `{}` | `{}` | {} | {} | {} |\n", v.name, v.option, v.meaning,
                        *v.default_value ? v.default_value : "-", v.allowed);
  return text;
}

Config Config::from_environment(char** envp) {
  const auto settings = read_settings(envp);
  Config config;
  config.machine = machine_preset(kDefaultMachine);
  // Table order matters: MPISIM_MACHINE comes before the variables that override its values.
  for (const Variable& v : table()) {
    const auto it = settings.find(v.info.name);
    if (it == settings.end()) continue;
    if (v.key)
      v.key->parse(config.machine, it->second, v.info.name);
    else
      v.apply(config, v.info, it->second);
    config.given.emplace_back(it->first, it->second);
  }
  const long ranks_per_host = (config.ranks + config.hosts - 1) / config.hosts;
  if (!config.stack_given) config.stack_size = default_stack_size(ranks_per_host);
  config.copy_stacks = config.stack_copy == StackCopy::On ||
                       config.stack_copy == StackCopy::Shared ||
                       (config.stack_copy == StackCopy::Auto && default_stack_copy(ranks_per_host));
  config.shared_stacks = config.copy_stacks && config.stack_copy != StackCopy::On;
  if (config.rank_state == RankState::Stack && config.copy_stacks)
    throw ConfigError("MPISIM_RANK_STATE=stack cannot be used while stacks are copied out "
                      "(MPISIM_STACK_COPY): a copied-out stack's pages are not its rank's; set "
                      "MPISIM_RANK_STATE=heap or MPISIM_STACK_COPY=off");
  config.state_in_stack =
      !config.copy_stacks &&
      (config.rank_state == RankState::Stack ||
       (config.rank_state == RankState::Auto && ranks_per_host >= kRankStateInStackRanks));
  check_machine(config, settings);
  check_map(config);
  return config;
}

bool default_stack_copy(long ranks_per_host) {
#if defined(MPISIM_ASAN)
  (void)ranks_per_host;
  return false;
#else
  return ranks_per_host >= kStackCopyRanks;
#endif
}

std::size_t default_stack_size(long ranks_per_host) {
  constexpr std::size_t kNative = 8 << 20, kSmallest = 256 << 10;
  std::size_t size = kNative;
  while (size > kSmallest &&
         size * static_cast<std::size_t>(std::max(ranks_per_host, 1L)) > kStackReservation)
    size /= 2;
  return size;
}

} // namespace mpisim
