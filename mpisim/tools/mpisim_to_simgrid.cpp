// mpisim-to-simgrid: writes the SimGrid platform, host file and smpirun options that model the
// same machine as an mpisim preset or machine file, so both simulators predict one model.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "config.hpp"
#include "machine.hpp"
#include "machine_file.hpp"
#include "simgrid_platform.hpp"

extern char** environ;

namespace {

constexpr const char* kTool = "mpisim-to-simgrid";

void write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out.flush())
    throw mpisim::ConfigError(
        fmt::format("cannot write {}: check that the folder is writable", path.string()));
}

/// The run's settings as mpisimrun would read them: the environment's MPISIM_* variables (an
/// unknown one or a bad value refused, MPISIM_LATENCY and the machine's other keys applied on
/// top of MACHINE), with MACHINE and the rank count of the command line in place of
/// MPISIM_MACHINE and MPISIM_RANKS, on one host process (SimGrid's run is one process).
mpisim::Config settings(const std::string& machine, int ranks) {
  std::vector<std::string> entries{"MPISIM_MACHINE=" + machine,
                                   "MPISIM_RANKS=" + std::to_string(ranks), "MPISIM_HOSTS=1"};
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    if (!entry.starts_with("MPISIM_MACHINE=") && !entry.starts_with("MPISIM_RANKS=") &&
        !entry.starts_with("MPISIM_HOSTS="))
      entries.push_back(entry);
  }
  std::vector<char*> envp;
  for (std::string& entry : entries)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  return mpisim::Config::from_environment(envp.data());
}

/// "MPISIM_LATENCY=2us, MPISIM_NETWORK=latency": the machine's parameters the environment set.
std::string machine_overrides(const mpisim::Config& config) {
  std::string text;
  for (const auto& [name, value] : config.given)
    for (const mpisim::MachineKey& k : mpisim::machine_keys())
      if (k.variable && name == k.variable) text += (text.empty() ? "" : ", ") + name + "=" + value;
  return text;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"mpisim-to-simgrid: the SimGrid SMPI platform and options of an mpisim machine. "
               "Run the program with: smpirun $(cat DIR/smpirun.args) ./program",
               kTool};
  std::string machine_name;
  std::string dir;
  int ranks = 0;
  std::string cpu;
  app.add_option("machine", machine_name, "a preset (mpisimrun --list-machines) or a machine file")
      ->required();
  app.add_option("-o,--output", dir, "the folder to write (created if missing)")->required();
  app.add_option("-n,--ranks", ranks, "the number of ranks (one host file line each; -np too)")
      ->required()
      ->check(CLI::Range(1, 1 << 24));
  app.add_option("--cpu", cpu,
                 "measured: SMPI runs and charges the compute; off: it skips it, "
                 "as mpisimrun --cpu off (default: MPISIM_CPU, or measured)")
      ->check(CLI::IsMember({"measured", "off"}));
  // mpiexec's spelling, which CLI11 cannot declare.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "-np") argv[i] = const_cast<char*>("--ranks");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2; // --help, or a bad command line
  }
  try {
    // What mpisimrun refuses (a topology too small for the ranks, a bad MPISIM_* value) is
    // refused here too, and what it applies to the machine is applied here too.
    const mpisim::Config config = settings(machine_name, ranks);
    const mpisim::MachineParams& machine = config.machine;
    const bool cpu_off = cpu.empty() ? config.cpu == mpisim::CpuMode::Off : cpu == "off";
    const mpisim::SimgridModel model = mpisim::to_simgrid(
        machine, ranks, cpu_off ? mpisim::SimgridCompute::Off : mpisim::SimgridCompute::Measured);
    const std::filesystem::path out = std::filesystem::absolute(dir);
    std::filesystem::create_directories(out);
    write(out / "platform.xml", model.platform_xml);
    std::string hosts;
    for (const std::string& h : model.hostfile)
      hosts += h + "\n";
    write(out / "hostfile", hosts);
    std::string args = fmt::format("-np\n{}\n-platform\n{}\n-hostfile\n{}\n", ranks,
                                   (out / "platform.xml").string(), (out / "hostfile").string());
    for (const std::string& o : model.options)
      args += "--cfg=" + o + "\n";
    write(out / "smpirun.args", args);
    const std::string overrides = machine_overrides(config);
    fmt::print("{}: wrote {}/platform.xml, hostfile and smpirun.args for {}{} on {} ranks\n", kTool,
               out.string(), machine.name,
               overrides.empty() ? "" : " with " + overrides + " from the environment", ranks);
    for (const std::string& u : model.unmapped)
      fmt::print(stderr, "{}: not mapped: {}\n", kTool, u);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", kTool, e.what());
    return 2;
  }
  return 0;
}
