// mpisimrun: turns options into MPISIM_* variables, validates them all before anything starts, and
// runs the program, under mpiexec when the simulation is spread over several host processes.
// Everything goes through the environment so that `mpiexec -n H ./prog` works without mpisimrun.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "config.hpp"
#include "network_model.hpp"
#include "units.hpp"

#ifndef MPISIM_VERSION
#define MPISIM_VERSION "0.1.0"
#endif

namespace {

using mpisim::VariableInfo;

constexpr const char* kUsage = "usage: mpisimrun -np N [-hosts H] [options] ./prog args...";
constexpr int kUsageError = 2;
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
    return cli11_spelling(v.option) == option;
  });
  const bool alias = std::any_of(std::begin(kAliases), std::end(kAliases),
                                 [option](const Alias& a) { return a.option == option; });
  return in_table || alias;
}

/// Rewrites "-np" to "--np" (also "-np=4") in mpisimrun's own arguments; the program's arguments,
/// from the first positional one on, are left as they are.
std::vector<std::string> rewrite_arguments(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  bool value_next = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string& arg = args[i];
    if (value_next) {
      value_next = false;
      continue;
    }
    if (arg == "--" || arg.size() < 2 || arg[0] != '-') break;
    const auto equals = arg.find('=');
    const std::string name = cli11_spelling(std::string_view(arg).substr(0, equals));
    if (takes_value(name) && is_single_dash_word(arg.substr(0, equals))) arg.insert(0, "-");
    value_next = takes_value(name) && equals == std::string::npos;
  }
  return args;
}

std::string help_text() {
  return fmt::format(
      "{}\n\n"
      "Runs ./prog as an MPI program of N ranks on a simulated target machine; MPI_Wtime in the\n"
      "program tells the predicted time, and a report follows its output. Each option sets the\n"
      "MPISIM_* variable beside it; variables already in the environment count when the option\n"
      "is not given. Options end at the program's name. -n is short for -np.\n\n"
      "{}"
      "  -h, --help         print this help\n"
      "  --list-machines    print the machine presets and their parameters\n"
      "  --show-machine     print the machine these options select, sized for -np ranks, as a\n"
      "                     machine file (docs/machines.md), and do not run anything\n"
      "  --version          print the version\n",
      kUsage, mpisim::describe_variables());
}

[[noreturn]] void run(const std::vector<std::string>& command, const std::string& program) {
  std::vector<char*> argv;
  for (const std::string& arg : command)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  fmt::print(stderr, "mpisimrun: cannot run {}: {}\n", command[0], std::strerror(errno));
  // mpiexec would only say that it failed to launch the program, and once per host process.
  if (command[0] != program) fmt::print(stderr, "mpisimrun: (the program is {})\n", program);
  std::exit(kCannotRun);
}

[[noreturn]] void launch(const std::vector<std::string>& program_args, int hosts) {
  const std::string& program = program_args.front();
  if (hosts == 1) run(program_args, program);
  if (program.find('/') != std::string::npos && access(program.c_str(), X_OK) != 0) {
    fmt::print(stderr, "mpisimrun: cannot run {}: {}\n", program, std::strerror(errno));
    std::exit(kCannotRun);
  }
  std::vector<std::string> command{"mpiexec", "-n", std::to_string(hosts)};
  command.insert(command.end(), program_args.begin(), program_args.end());
  run(command, program);
}

[[noreturn]] void usage_error(const std::string& message) {
  fmt::print(stderr, "mpisimrun: {}\n{}\n(mpisimrun --help lists the options)\n", message, kUsage);
  std::exit(kUsageError);
}

/// The program and its arguments. With prefix_command() CLI11 passes an unknown option and
/// the "--" that ends the options on as if they were the program.
std::vector<std::string> program_arguments(std::vector<std::string> remaining) {
  if (!remaining.empty() && remaining.front() == "--")
    remaining.erase(remaining.begin());
  else if (!remaining.empty() && remaining.front().starts_with('-'))
    usage_error(fmt::format("unknown option {}", remaining.front()));
  if (remaining.empty()) usage_error("no program to run");
  return remaining;
}

struct Options {
  std::deque<std::string> values; ///< one per variable; a deque keeps CLI11's pointers valid
  std::vector<CLI::Option*> options;
  bool help = false;
  bool list_machines = false;
  bool show_machine = false;
  bool version = false;
  bool variables_markdown = false;
};

void add_options(CLI::App& app, Options& o) {
  app.set_help_flag();
  app.add_flag("-h,--help", o.help);
  app.add_flag("--list-machines", o.list_machines);
  app.add_flag("--show-machine", o.show_machine);
  app.add_flag("--version", o.version);
  app.add_flag("--variables-markdown", o.variables_markdown)
      ->group(""); // for docs/configuration.md
  for (const VariableInfo& v : mpisim::variables()) {
    o.values.emplace_back();
    o.options.push_back(app.add_option(cli11_names(v), o.values.back(), v.meaning)
                            ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast));
  }
}

void export_options(const Options& o) {
  const auto& vars = mpisim::variables();
  for (std::size_t i = 0; i < vars.size(); ++i)
    if (o.options[i]->count() > 0) setenv(vars[i].name, o.values[i].c_str(), 1);
}

void print_information(const Options& o) {
  if (o.help) fmt::print("{}", help_text());
  if (o.version) fmt::print("mpisimrun (mpisim) {}\n", MPISIM_VERSION);
  if (o.list_machines) fmt::print("{}", mpisim::describe_machine_presets());
  if (o.variables_markdown) fmt::print("{}", mpisim::describe_variables_markdown());
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"mpisimrun: run an MPI program on a simulated machine", "mpisimrun"};
  app.prefix_command();
  Options options;
  add_options(app, options);

  std::vector<std::string> args = rewrite_arguments(argc, argv);
  std::vector<char*> rewritten;
  for (std::string& arg : args)
    rewritten.push_back(arg.data());
  try {
    app.parse(static_cast<int>(rewritten.size()), rewritten.data());
  } catch (const CLI::ParseError& e) {
    usage_error(e.what());
  }

  if (options.help || options.version || options.list_machines || options.variables_markdown) {
    print_information(options);
    return 0;
  }

  export_options(options);
  mpisim::Config config;
  try {
    config = mpisim::Config::from_environment(environ);
  } catch (const mpisim::ConfigError& e) {
    fmt::print(stderr, "mpisimrun: {}\n", e.what());
    return kUsageError;
  }
  if (options.show_machine) {
    fmt::print("{}", mpisim::NetworkModel(config.machine, config.ranks).describe());
    return 0;
  }
  launch(program_arguments(app.remaining()), config.hosts);
}
