// mpisim-replay: re-simulates a run recorded with MPISIM_RECORD on a machine model (the same
// options as mpisimrun), without running the program again.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "config.hpp"
#include "replay.hpp"
#include "replay_compute.hpp"
#include "run_options.hpp"
#include "simulator_main.hpp"
#include "transport.hpp"

extern char** environ;

namespace {

constexpr const char* kTool = "mpisim-replay";
constexpr int kUsageError = 2;

[[noreturn]] void fail(const std::string& message) {
  fmt::print(stderr, "{}: {}\n", kTool, message);
  std::exit(kUsageError);
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"mpisim-replay: re-simulate a recorded run (MPISIM_RECORD) on a machine model, "
               "without the program. Options are mpisimrun's (--machine, --latency, -hosts, ...); "
               "-np is the recorded one. MPI-IO goes to stand-in files: the recorded run's files "
               "are neither read nor written.",
               kTool};
  std::string dir;
  app.add_option("dir", dir, "the directory MPISIM_RECORD wrote")->required();
  bool strict = false;
  app.add_flag(
      "--strict", strict,
      fmt::format("exit with code {} when a wildcard match, test outcome or rank's node of "
                  "the replay differs from the recorded run's (the prediction is then approximate; "
                  "without it, a warning and the report's replay.diverged say so)",
                  mpisim::kReplayDivergedExitCode));
  bool ideal_balance = false;
  app.add_flag("--ideal-balance", ideal_balance,
               "charge each rank's k-th stretch of compute as the mean over the ranks of their "
               "k-th stretches: the load-balance bound (what perfect balance would give)");
  mpisim::tools::VariableOptions variables;
  variables.add_to(app);
  std::vector<std::string> args = mpisim::tools::rewrite_arguments(argc, argv, true);
  std::vector<char*> rewritten;
  for (std::string& arg : args)
    rewritten.push_back(arg.data());
  try {
    app.parse(static_cast<int>(rewritten.size()), rewritten.data());
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kUsageError; // --help, or a bad command line
  }
  variables.export_given();

  mpisim::RecordMeta meta;
  try {
    meta = mpisim::read_record_meta(dir);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (meta.outcome != "finished")
    fail(fmt::format("the recorded run did not finish ({}): its record is incomplete",
                     meta.outcome));
  const char* ranks = std::getenv("MPISIM_RANKS");
  if (ranks && std::atoi(ranks) != meta.ranks)
    fail(fmt::format("{} recorded {} ranks; -np {} cannot replay it", dir, meta.ranks, ranks));
  const char* record = std::getenv("MPISIM_RECORD");
  if (record && std::string(record) == dir)
    fail(fmt::format("MPISIM_RECORD={} would overwrite the record being replayed", dir));
  setenv("MPISIM_RANKS", std::to_string(meta.ranks).c_str(), 1);
  // The recorded run's machine unless another is named: the same prediction without options.
  // The other options change it as they would change a named machine.
  if (const std::string recorded = dir + "/" + mpisim::kRecordedMachineFile;
      !std::getenv("MPISIM_MACHINE") && std::filesystem::exists(recorded))
    setenv("MPISIM_MACHINE", recorded.c_str(), 1);
  // Compute comes from the record; measuring the replayer's own CPU time would add to it.
  setenv("MPISIM_CPU", "off", 1);

  mpisim::Config config;
  try {
    config = mpisim::Config::from_environment(environ);
  } catch (const mpisim::ConfigError& e) {
    fail(e.what());
  }
  if (config.hosts > 1 && !mpisim::protocols::launched_as_several_processes()) {
    std::vector<std::string> command = {argv[0], dir};
    if (strict) command.emplace_back("--strict");
    if (ideal_balance) command.emplace_back("--ideal-balance");
    mpisim::tools::launch(command, config.hosts, kTool);
  }
  for (const std::string& why :
       {mpisim::openmp_mismatch(meta, config.machine),
        mpisim::compute_mismatch(meta, config.machine, config.simulated_libc_time)})
    if (!why.empty()) fail(fmt::format("{}: {}", dir, why));
  const double compute_scale = config.machine.cpu_scale / meta.cpu_scale;
  std::vector<char*> rank_argv = {argv[0], nullptr};
  const auto checks = std::make_shared<mpisim::ReplayChecks>();
  checks->clock_reads = meta.clock_reads;
  std::shared_ptr<const std::vector<mpisim::SimTime>> balanced;
  if (ideal_balance) try {
      balanced = std::make_shared<const std::vector<mpisim::SimTime>>(
          mpisim::balanced_compute(dir, meta.ranks, compute_scale));
    } catch (const std::exception& e) {
      fail(e.what());
    }
  return mpisim::simulate_main(
      mpisim::replay_main(dir, compute_scale, meta.buffer_bound, checks, balanced), 1,
      rank_argv.data(), kTool, {checks.get(), strict});
}
