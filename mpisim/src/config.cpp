// The one table of MPISIM_* variables drives validation, mpisimrun's options and its --help, so a
// variable cannot be documented without being parsed, or parsed without being documented.
#include "config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "units.hpp"

namespace mpisim {
namespace {

constexpr SimTime kNs = 1'000;
constexpr SimTime kUs = 1'000'000;
constexpr const char* kDefaultMachine = "cluster";
constexpr std::size_t kMinStack = 16 * 1024;
constexpr std::size_t kStackGranule = 4096;

struct Preset {
  const char* description;
  MachineParams params;
};

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all{
      {"modern InfiniBand-class cluster (the default)",
       {"cluster", 200 * kNs, 200 * kNs, 1'500 * kNs, 12e9, 64 * 1024, 100 * kNs, 1.0}},
      {"IBM SP2 of the MPI-SIM paper: ~39 us MPI latency end to end, ~37 MB/s",
       {"sp2", 6 * kUs, 6 * kUs, 27 * kUs, 37e6, 4096, 1 * kUs, 1.0}},
      {"1996 Ethernet as fitted by PUPPET: 1449.8 us + 1.0086 us per byte",
       {"ethernet-1996", 0, 0, 1'449'800 * kNs, 1 / 1.0086e-6, 4096, 10 * kUs, 1.0}},
      // Latency 1 ps, not 0: conservative synchronization needs a positive lookahead.
      {"no overheads, 1 ps latency, infinite bandwidth, every message eager",
       {"ideal", 0, 0, 1, 0.0, 1ULL << 62, 1, 1.0}},
  };
  return all;
}

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

double positive_double(const VariableInfo& v, const std::string& value) {
  double x = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), x);
  if (error != std::errc{} || end != value.data() + value.size() || !std::isfinite(x) || x <= 0)
    invalid(v, value);
  return x;
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

std::string map_setting(const VariableInfo& v, const std::string& value) {
  // A typo such as "blok" must not silently become a file name.
  if (value != "block" && value != "cyclic" && !std::filesystem::is_regular_file(value))
    invalid(v, value, "no such map file");
  return value;
}

MachineParams machine_setting(const VariableInfo& v, const std::string& value) {
  const auto names = machine_preset_names();
  if (std::find(names.begin(), names.end(), value) != names.end()) return machine_preset(value);
  if (value.find('/') != std::string::npos || std::filesystem::exists(value))
    throw ConfigError(fmt::format("{}={}: machine files are not supported yet; the presets are: {}",
                                  v.name, value, join(names)));
  invalid(v, value);
}

using Apply = void (*)(Config&, const VariableInfo&, const std::string&);

struct Variable {
  VariableInfo info;
  Apply apply;
};

const std::vector<Variable>& table() {
  static const std::string machines =
      "a preset: " + join(machine_preset_names()) + " (machine files are not supported yet)";
  static const std::vector<Variable> all{
      {{"MPISIM_RANKS", "-np", "number of target ranks (the size of MPI_COMM_WORLD)", "1",
        "a positive integer"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.ranks = positive_int(v, s);
       }},
      {{"MPISIM_HOSTS", "-hosts", "host processes that run the simulation (under mpiexec if > 1)",
        "1", "a positive integer"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.hosts = positive_int(v, s);
       }},
      {{"MPISIM_MAP", "--map", "which host process simulates which rank", "block",
        "block, cyclic, or the path of a map file"},
       [](Config& c, const VariableInfo& v, const std::string& s) { c.map = map_setting(v, s); }},
      {{"MPISIM_PROTOCOL", "--protocol", "synchronization protocol between host processes",
        "nmp+cep", "quantum, nmp, cep, nmp+cep"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.protocol =
             pick(v, s, {Protocol::Quantum, Protocol::Nmp, Protocol::Cep, Protocol::NmpCep});
       }},
      {{"MPISIM_DET", "--det",
        "deterministic mode: receives that name their source complete without a time bound", "1",
        "0, 1"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.det = pick(v, s, {false, true});
       }},
      {{"MPISIM_QUANTUM", "--quantum", "window of the quantum protocol",
        "the machine's latency (Lmin)", "a time > 0 and <= the machine's latency, e.g. 1us"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.quantum = positive_time(v, s);
       }},
      {{"MPISIM_LOOKAHEAD", "--lookahead", "how lookahead is computed", "dynamic",
        "static, dynamic"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.lookahead = pick(v, s, {Lookahead::Static, Lookahead::Dynamic});
       }},
      {{"MPISIM_MACHINE", "--machine", "target machine model", kDefaultMachine, machines.c_str()},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine = machine_setting(v, s);
       }},
      {{"MPISIM_LATENCY", "--latency", "wire latency between two ranks", "from the machine",
        "a time > 0, e.g. 1.5us, 40us, 2ms"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine.latency = positive_time(v, s);
       }},
      {{"MPISIM_BANDWIDTH", "--bandwidth", "link bandwidth", "from the machine",
        "a bandwidth > 0, e.g. 35MB/s, 12.5GB/s, 1Gb/s, 100KiB/s"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine.bandwidth = parse_bandwidth(s, v.name);
       }},
      {{"MPISIM_SEND_OVERHEAD", "--send-overhead", "CPU time a sender spends per message",
        "from the machine", "a time, e.g. 200ns, 6us, 0"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine.send_overhead = parse_time(s, v.name);
       }},
      {{"MPISIM_RECV_OVERHEAD", "--recv-overhead", "CPU time a receiver spends per message",
        "from the machine", "a time, e.g. 200ns, 6us, 0"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine.recv_overhead = parse_time(s, v.name);
       }},
      {{"MPISIM_EAGER_LIMIT", "--eager-limit",
        "largest message sent eagerly; above it a send waits for the matching receive",
        "from the machine", "a size, e.g. 4096, 64KiB, 1MiB, 0"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine.eager_limit = parse_size(s, v.name);
       }},
      {{"MPISIM_POLL_OVERHEAD", "--poll-overhead",
        "cost of an MPI_Test/MPI_Iprobe that completes nothing, so polling loops advance",
        "from the machine", "a time > 0, e.g. 100ns, 1us"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine.poll_overhead = positive_time(v, s);
       }},
      {{"MPISIM_CPU", "--cpu",
        "measured: charge host CPU time between MPI calls; off: charge none (reproducible)",
        "measured", "measured, off"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.cpu = pick(v, s, {CpuMode::Measured, CpuMode::Off});
       }},
      {{"MPISIM_CPU_SCALE", "--cpu-scale", "target seconds per host CPU second", "from the machine",
        "a number > 0, e.g. 1, 0.5, 2.5"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.machine.cpu_scale = positive_double(v, s);
       }},
      {{"MPISIM_STACK", "--stack", "stack size of each rank", "256KiB",
        "a size >= 16KiB, rounded up to 4 KiB, e.g. 256KiB, 8MiB"},
       [](Config& c, const VariableInfo& v, const std::string& s) {
         c.stack_size = stack_size(v, s);
       }},
      {{"MPISIM_REPORT", "--report", "also write the report as JSON to this file", "",
        "a file path"},
       [](Config& c, const VariableInfo&, const std::string& s) { c.report_path = s; }},
      {{"MPISIM_TRACE", "--trace", "write a timeline (Chrome trace-event JSON) to this file", "",
        "a file path"},
       [](Config& c, const VariableInfo&, const std::string& s) { c.trace_path = s; }},
  };
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

/// The MPISIM_* entries of `envp` by name. The first of duplicates wins, as with getenv().
std::map<std::string, std::string> read_settings(char** envp) {
  std::map<std::string, std::string> settings;
  for (char** entry = envp; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    if (!text.starts_with("MPISIM_") || equals == std::string_view::npos) continue;
    const std::string name(text.substr(0, equals));
    if (!find_entry(name))
      throw ConfigError(fmt::format("unknown variable {}{}; the valid variables are: {}", name,
                                    suggestion(name), variable_names()));
    settings.emplace(name, std::string(text.substr(equals + 1)));
  }
  return settings;
}

void check_quantum(const Config& c, const std::map<std::string, std::string>& settings) {
  if (!c.quantum || *c.quantum <= c.machine.latency) return;
  throw ConfigError(fmt::format(
      "MPISIM_QUANTUM={} is larger than the latency of machine {} ({}): the quantum protocol "
      "is only exact with a window no larger than the smallest latency",
      settings.at("MPISIM_QUANTUM"), c.machine.name, format_time(c.machine.latency)));
}

} // namespace

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
    v.apply(config, v.info, it->second);
    config.given.emplace_back(it->first, it->second);
  }
  check_quantum(config, settings);
  return config;
}

MachineParams machine_preset(const std::string& name) {
  for (const Preset& p : presets())
    if (p.params.name == name) return p.params;
  throw ConfigError(fmt::format("unknown machine preset '{}'; the presets are: {}", name,
                                join(machine_preset_names())));
}

std::vector<std::string> machine_preset_names() {
  std::vector<std::string> names;
  for (const Preset& p : presets())
    names.push_back(p.params.name);
  return names;
}

std::string describe_machine(const MachineParams& m) {
  return fmt::format(
      "send overhead {}, recv overhead {}, latency {}, bandwidth {}, eager limit {}, "
      "poll overhead {}, cpu scale {:g}",
      format_time(m.send_overhead), format_time(m.recv_overhead), format_time(m.latency),
      format_bandwidth(m.bandwidth), format_size(m.eager_limit), format_time(m.poll_overhead),
      m.cpu_scale);
}

std::string describe_machine_presets() {
  std::string text;
  for (const Preset& p : presets())
    text +=
        fmt::format("{}: {}\n    {}\n", p.params.name, p.description, describe_machine(p.params));
  return text;
}

} // namespace mpisim
