// Machine files: "key = value" lines (a subset of TOML), one key per machine parameter. The same
// key table gives the MPISIM_* variables that override a machine's values, so a parameter cannot
// be readable from a file without being settable from the environment, or the other way round.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "machine.hpp"

namespace mpisim {

/// One parameter of a machine.
struct MachineKey {
  const char* key;      ///< as written in a machine file, e.g. "latency"
  const char* variable; ///< the MPISIM_* variable that overrides it, or nullptr (file only)
  const char* option;   ///< its mpisimrun option, or nullptr
  const char* meaning;  ///< one line
  const char* allowed;  ///< allowed values or value syntax
  /// Sets the parameter from `value`; throws ConfigError naming `what` on a bad value.
  void (*parse)(MachineParams& m, const std::string& value, const std::string& what);
  /// The parameter as a file value that parse() reads back exactly.
  std::string (*format)(const MachineParams& m);
};

/// Every machine key, in file order.
const std::vector<MachineKey>& machine_keys();

/// The key called `key`, or nullptr.
const MachineKey* find_machine_key(std::string_view key);

/// Reads machine text (the contents of a file called `source`). Keys not given keep the values
/// of the preset named by `base` (default "cluster"); `name` defaults to `source`. Throws
/// ConfigError with the file and line of an unknown key, a repeated key or a bad value.
MachineParams parse_machine_text(const std::string& text, const std::string& source);

/// Reads the machine file at `path` (see parse_machine_text).
MachineParams read_machine_file(const std::string& path);

/// Every parameter of `m` as a machine file that parse_machine_text reads back to `m`.
/// `comment` (any number of lines) goes at the top as # lines.
std::string format_machine_file(const MachineParams& m, const std::string& comment = "");

/// The keys as the Markdown table of docs/machines.md (a test keeps the two equal).
std::string describe_machine_keys_markdown();

/// A bandwidth as text that parse_bandwidth reads back to exactly the same double
/// ("infinite" for 0).
std::string exact_bandwidth(double bytes_per_second);

} // namespace mpisim
