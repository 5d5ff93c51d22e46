#include "simulator_main.hpp"

#include <cstdio>
#include <fstream>

#include "config.hpp"
#include "fresh_heap.hpp"
#include "memory_fit.hpp"
#include "output_paths.hpp"
#include "report.hpp"
#include "simulation.hpp"

extern char** environ;

// The note of runtime_note.hpp (owner "mpisim", type 1, a version word). Allocated, so that it
// is in a PT_NOTE segment of the executable: strip and --gc-sections keep it.
__asm__(".pushsection .note.mpisim,\"a\",@note\n"
        ".balign 4\n"
        ".long 7\n" // name size: "mpisim" and its terminator
        ".long 4\n" // descriptor size
        ".long 1\n" // type
        ".asciz \"mpisim\"\n"
        ".balign 4\n"
        ".long 1\n"
        ".popsection\n");

namespace mpisim {

int simulate_main(const mpilite::World::Main& program, int argc, char** argv, const char* tool,
                  const ReplaySettings& replay) {
  Config config;
  try {
    config = Config::from_environment(environ);
    check_output_paths(config);
    fit_ranks(config);
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "%s: %s\n", tool, e.what());
    return 2;
  }
  if (config.fresh_heap) make_heap_fresh();
  Simulation sim(config);
  RunSummary run;
  try {
    run = sim.run(program, argc, argv, replay.checks);
  } catch (const std::exception& e) { // writing the trace, matrix or record
    std::fprintf(stderr, "%s: %s\n", tool, e.what());
    return 2;
  }
  std::fflush(stdout);
  if (!run.reporting_host) return run.exit_code;
  // Every rank in the report file (write_report); in the text, only as many as it shows.
  const nlohmann::json report = build_report(config, run);
  std::fputs(render_report(report).c_str(), stderr);
  // An output that could not be written is named after the report, which is never lost to it.
  bool written = run.output_errors.empty();
  for (const std::string& error : run.output_errors)
    std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
  if (!config.report_path.empty()) {
    std::ofstream out(config.report_path);
    write_report(out, report, run);
    out << "\n";
    if (!out) {
      std::fprintf(stderr, "%s: cannot write the report to %s\n", tool, config.report_path.c_str());
      written = false;
    }
  }
  // After the report and its errors, where it is the last thing a user reads.
  if (run.replay)
    for (const std::string& warning : replay_warnings(*run.replay))
      std::fprintf(stderr, "%s: %s\n", tool, warning.c_str());
  if (run.exit_code) return run.exit_code;
  if (!written) return 2;
  return replay.strict && run.replay && run.replay->differing ? kReplayDivergedExitCode : 0;
}

} // namespace mpisim
