// Settings of one simulation: every MPISIM_* environment variable, parsed and validated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim_time.hpp"

namespace mpisim {

using mpilite::SimTime;

/// A bad or unknown setting. what() names the variable, the problem and the allowed values.
class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class Protocol { Quantum, Nmp, Cep, NmpCep };
enum class CpuMode { Measured, Off };
enum class Lookahead { Static, Dynamic };

/// The network and processor parameters of a target machine (fully connected network).
struct MachineParams {
  std::string name;              ///< preset name or file it came from
  SimTime send_overhead = 0;     ///< CPU time the sender spends per message
  SimTime recv_overhead = 0;     ///< CPU time the receiver spends per message
  SimTime latency = 0;           ///< wire latency between two ranks
  double bandwidth = 0;          ///< bytes per second; 0 means infinite
  std::uint64_t eager_limit = 0; ///< largest message sent eagerly, in bytes
  SimTime poll_overhead = 0;     ///< cost of an MPI_Test/Iprobe call that finds nothing new
  double cpu_scale = 1.0;        ///< target seconds per host CPU second
};

/// One MPISIM_* variable: the single table behind validation, mpisimrun --help and docs.
struct VariableInfo {
  const char* name;          ///< e.g. "MPISIM_RANKS"
  const char* option;        ///< mpisimrun option, e.g. "-np"
  const char* meaning;       ///< one line
  const char* default_value; ///< as shown to users
  const char* allowed;       ///< allowed values or value syntax
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
  Protocol protocol = Protocol::NmpCep;
  bool det = true;
  std::optional<SimTime> quantum; ///< unset: the machine's smallest latency
  Lookahead lookahead = Lookahead::Dynamic;
  MachineParams machine; ///< preset (MPISIM_MACHINE) with MPISIM_LATENCY etc. applied
  CpuMode cpu = CpuMode::Measured;
  std::size_t stack_size = 256 * 1024;
  std::string report_path;
  std::string trace_path;
  /// The MPISIM_* variables that were set, as (name, value), for the report.
  std::vector<std::pair<std::string, std::string>> given;

  /// Reads and validates all MPISIM_* variables of `envp` (a null-terminated environ array).
  /// Throws ConfigError for an unknown MPISIM_* name or a bad value.
  static Config from_environment(char** envp);
};

/// Named machine presets (MPISIM_MACHINE): "cluster" (default), "sp2", "ethernet-1996", "ideal".
/// Throws ConfigError listing the presets when `name` is unknown.
MachineParams machine_preset(const std::string& name);
std::vector<std::string> machine_preset_names();

/// One line of a machine's parameters: "send overhead 200 ns, recv overhead 200 ns, ...".
std::string describe_machine(const MachineParams& machine);

/// Every preset with a short description and its parameters (mpisimrun --list-machines).
std::string describe_machine_presets();

} // namespace mpisim
