// mpisim-to-simgrid: writes the SimGrid platform, host file and smpirun options that model the
// same machine as an mpisim preset or machine file, so both simulators predict one model.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "config.hpp"
#include "link_costs.hpp"
#include "machine.hpp"
#include "simgrid_platform.hpp"

namespace {

constexpr const char* kTool = "mpisim-to-simgrid";

void write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out.flush())
    throw mpisim::ConfigError(
        fmt::format("cannot write {}: check that the folder is writable", path.string()));
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"mpisim-to-simgrid: the SimGrid SMPI platform and options of an mpisim machine. "
               "Run the program with: smpirun $(cat DIR/smpirun.args) ./program",
               kTool};
  std::string machine_name;
  std::string dir;
  int ranks = 0;
  std::string cpu = "measured";
  app.add_option("machine", machine_name, "a preset (mpisimrun --list-machines) or a machine file")
      ->required();
  app.add_option("-o,--output", dir, "the folder to write (created if missing)")->required();
  app.add_option("-n,--ranks", ranks, "the number of ranks (one host file line each; -np too)")
      ->required()
      ->check(CLI::Range(1, 1 << 24));
  app.add_option("--cpu", cpu,
                 "measured: SMPI runs and charges the compute; off: it skips it, "
                 "as mpisimrun --cpu off")
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
    const mpisim::MachineParams machine = mpisim::load_machine(machine_name, "MACHINE");
    // What mpisimrun refuses for this many ranks (a topology too small) is refused here too.
    [[maybe_unused]] const mpisim::LinkCosts sized(machine, ranks);
    const mpisim::SimgridModel model = mpisim::to_simgrid(
        machine, ranks,
        cpu == "off" ? mpisim::SimgridCompute::Off : mpisim::SimgridCompute::Measured);
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
    fmt::print("{}: wrote {}/platform.xml, hostfile and smpirun.args for {} on {} ranks\n", kTool,
               out.string(), machine.name, ranks);
    for (const std::string& u : model.unmapped)
      fmt::print(stderr, "{}: not mapped: {}\n", kTool, u);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", kTool, e.what());
    return 2;
  }
  return 0;
}
