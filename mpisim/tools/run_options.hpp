// The command line shared by mpisimrun and mpisim-replay: one option per MPISIM_* variable (from
// the table in config.cpp), mpirun's spellings, and launching under mpiexec for several hosts.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace mpisim::tools {

/// Rewrites "-np" to "--np" (also "-np=4") in the tool's own arguments, as CLI11 wants them;
/// the program's arguments, from the first positional one on, are left as they are (unless
/// `options_everywhere`: a tool without a program may have options after its positionals).
std::vector<std::string> rewrite_arguments(int argc, char** argv, bool options_everywhere = false);

/// The options of the MPISIM_* variables on a CLI11 app.
class VariableOptions {
public:
  void add_to(CLI::App& app);
  /// Sets the variable of every option that was given (the environment holds the rest).
  void export_given() const;

private:
  std::deque<std::string> values_; ///< one per variable; a deque keeps CLI11's pointers valid
  std::vector<CLI::Option*> options_;
};

/// Runs `command` (the program and its arguments) directly when `hosts` is 1, else under
/// `mpiexec -n hosts`. Never returns; `tool` names the caller in error messages.
[[noreturn]] void launch(const std::vector<std::string>& command, int hosts, const char* tool);

} // namespace mpisim::tools
