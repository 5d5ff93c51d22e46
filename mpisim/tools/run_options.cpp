#include "run_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "config.hpp"
#include "transport.hpp"

namespace mpisim::tools {
namespace {

using mpisim::VariableInfo;

constexpr int kCannotRun = 127;

/// mpirun's traditional short spellings, beside the table's own option.
struct Alias {
  std::string_view variable;
  std::string_view option;
};
constexpr Alias kAliases[] = {{"MPISIM_RANKS", "-n"}};

bool is_single_dash_word(std::string_view option) {
  return option.size() > 2 && option[0] == '-' && option[1] != '-';
}

/// How CLI11 spells a table option: it takes only one letter after a single dash.
std::string cli11_spelling(std::string_view option) {
  return is_single_dash_word(option) ? "-" + std::string(option) : std::string(option);
}

std::string cli11_names(const VariableInfo& v) {
  std::string names = cli11_spelling(v.option);
  for (const Alias& alias : kAliases)
    if (alias.variable == v.name) names += fmt::format(",{}", alias.option);
  return names;
}

bool takes_value(std::string_view option) {
  const auto& vars = mpisim::variables();
  const bool in_table = std::any_of(vars.begin(), vars.end(), [option](const VariableInfo& v) {
    return !v.flag_value && cli11_spelling(v.option) == option;
  });
  const bool alias = std::any_of(std::begin(kAliases), std::end(kAliases),
                                 [option](const Alias& a) { return a.option == option; });
  return in_table || alias;
}

/// Rewrites "-np" to "--np" (also "-np=4") in mpisimrun's own arguments; the program's arguments,
/// from the first positional one on, are left as they are.
} // namespace

std::vector<std::string> rewrite_arguments(int argc, char** argv, bool options_everywhere) {
  std::vector<std::string> args(argv, argv + argc);
  bool value_next = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string& arg = args[i];
    if (value_next) {
      value_next = false;
      continue;
    }
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') {
      if (options_everywhere) continue;
      break;
    }
    const auto equals = arg.find('=');
    const std::string name = cli11_spelling(std::string_view(arg).substr(0, equals));
    if (takes_value(name) && is_single_dash_word(arg.substr(0, equals))) arg.insert(0, "-");
    value_next = takes_value(name) && equals == std::string::npos;
  }
  return args;
}

namespace {

[[noreturn]] void run(const std::vector<std::string>& command, const std::string& program,
                      const char* tool) {
  std::vector<char*> argv;
  for (const std::string& arg : command)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  fmt::print(stderr, "{}: cannot run {}: {}\n", tool, command[0], std::strerror(errno));
  // mpiexec would only say that it failed to launch the program, and once per host process.
  if (command[0] != program) fmt::print(stderr, "{}: (the program is {})\n", tool, program);
  std::exit(kCannotRun);
}

} // namespace

[[noreturn]] void launch(const std::vector<std::string>& program_args, int hosts,
                         const char* tool) {
  const std::string& program = program_args.front();
  if (hosts == 1) run(program_args, program, tool);
  if (program.find('/') != std::string::npos && access(program.c_str(), X_OK) != 0) {
    fmt::print(stderr, "{}: cannot run {}: {}\n", tool, program, std::strerror(errno));
    std::exit(kCannotRun);
  }
  mpisim::protocols::skip_io_discovery();
  std::vector<std::string> command{"mpiexec", "-n", std::to_string(hosts)};
  command.insert(command.end(), program_args.begin(), program_args.end());
  run(command, program, tool);
}

void VariableOptions::add_to(CLI::App& app) {
  for (const VariableInfo& v : mpisim::variables()) {
    values_.emplace_back();
    if (v.flag_value) {
      // A value after the flag (--critical-path=0) is refused, not taken as the flag.
      options_.push_back(app.add_flag(cli11_names(v), v.meaning)->disable_flag_override());
      continue;
    }
    options_.push_back(app.add_option(cli11_names(v), values_.back(), v.meaning)
                           ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast));
  }
}

void VariableOptions::export_given() const {
  const auto& vars = mpisim::variables();
  for (std::size_t i = 0; i < vars.size(); ++i)
    if (options_[i]->count() > 0)
      setenv(vars[i].name, vars[i].flag_value ? vars[i].flag_value : values_[i].c_str(), 1);
}

} // namespace mpisim::tools
