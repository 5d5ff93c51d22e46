// The simulator's main(): reads the settings, runs the target program's main once per rank on
// its own fiber, prints the report and exits with the run's exit code.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "config.hpp"
#include "report.hpp"
#include "simulation.hpp"

// The target program's main, renamed by mpi.h. It is C (unmangled) or C++ with one of the three
// signatures C++ allows; whichever the program defines is non-null.
extern "C" int mpisim_c_main(int, char**, char**) __asm__("mpisim_user_main") __attribute__((weak));
int mpisim_user_main() __attribute__((weak));
int mpisim_user_main(int, char**) __attribute__((weak));
int mpisim_user_main(int, char**, char**) __attribute__((weak));

extern char** environ;

namespace {

mpilite::World::Main user_main() {
  if (mpisim_c_main)
    return [](int argc, char** argv) { return mpisim_c_main(argc, argv, environ); };
  int (*cxx3)(int, char**, char**) = &mpisim_user_main;
  int (*cxx2)(int, char**) = &mpisim_user_main;
  int (*cxx0)() = &mpisim_user_main;
  if (cxx3) return [cxx3](int argc, char** argv) { return cxx3(argc, argv, environ); };
  if (cxx2) return cxx2;
  if (cxx0) return [cxx0](int, char**) { return cxx0(); };
  return nullptr;
}

} // namespace

int main(int argc, char** argv) {
  mpisim::Config config;
  try {
    config = mpisim::Config::from_environment(environ);
  } catch (const mpisim::ConfigError& e) {
    std::fprintf(stderr, "mpisim: %s\n", e.what());
    return 2;
  }
  const auto program = user_main();
  if (!program) {
    std::fprintf(stderr, "mpisim: the program has no main() compiled against mpisim's mpi.h; "
                         "include <mpi.h> in the file that defines main and build with mpisimcc\n");
    return 2;
  }
  mpisim::Simulation sim(config);
  const mpisim::RunSummary run = sim.run(program, argc, argv);
  std::fflush(stdout);
  if (!run.reporting_host) return run.exit_code;
  const nlohmann::json report = mpisim::build_report(config, run);
  std::fputs(mpisim::render_report(report).c_str(), stderr);
  if (!config.report_path.empty()) {
    std::ofstream out(config.report_path);
    out << report.dump(2) << "\n";
    if (!out) {
      std::fprintf(stderr, "mpisim: cannot write the report to %s\n", config.report_path.c_str());
      return run.exit_code ? run.exit_code : 2;
    }
  }
  return run.exit_code;
}

// Referenced by mpisimcc's link line so that this object (and its main) is always linked.
extern "C" const int mpisim_runtime_main_anchor = 1;
