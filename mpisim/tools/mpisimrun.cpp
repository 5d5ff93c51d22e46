// mpisimrun: turns options into MPISIM_* variables, validates them all before anything starts, and
// runs the program, under mpiexec when the simulation is spread over several host processes.
// Everything goes through the environment so that `mpiexec -n H ./prog` works without mpisimrun.
#include <cstdlib>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "config.hpp"
#include "link_costs.hpp"
#include "run_options.hpp"
#include "simulated_program.hpp"
#include "units.hpp"

#ifndef MPISIM_VERSION
#define MPISIM_VERSION "0.1.0"
#endif

namespace {

constexpr const char* kUsage = "usage: mpisimrun -np N [-hosts H] [options] ./prog args...";
constexpr int kUsageError = 2;

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
  mpisim::tools::VariableOptions variables;
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
  o.variables.add_to(app);
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

  std::vector<std::string> args = mpisim::tools::rewrite_arguments(argc, argv);
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

  options.variables.export_given();
  mpisim::Config config;
  try {
    config = mpisim::Config::from_environment(environ);
  } catch (const mpisim::ConfigError& e) {
    fmt::print(stderr, "mpisimrun: {}\n", e.what());
    return kUsageError;
  }
  if (options.show_machine) {
    fmt::print("{}", mpisim::LinkCosts(config.machine, config.ranks).describe());
    return 0;
  }
  const std::vector<std::string> program = program_arguments(app.remaining());
  if (const std::string refusal = mpisim::tools::why_not_simulated(program.front());
      !refusal.empty()) {
    fmt::print(stderr, "mpisimrun: {}\n", refusal);
    return kUsageError;
  }
  mpisim::tools::launch(program, config.hosts, "mpisimrun");
}
