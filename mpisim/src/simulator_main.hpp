// The simulator's main() once the program is known: reads the settings from the environment,
// simulates `program` on every rank, prints the report and returns the run's exit code. Programs
// built with mpisimcc get it through runtime_main.cpp; mpisim-replay calls it with its replayer.
#pragma once

#include "replay_checks.hpp"
#include "world.hpp"

namespace mpisim {

/// mpisim-replay's part of a run: what its ranks find of their outcomes on this host process
/// (replay_main), and whether a difference from the record fails the run (--strict).
struct ReplaySettings {
  const ReplayChecks* checks = nullptr;
  bool strict = false;
};

/// `tool` prefixes error messages ("mpisim").
int simulate_main(const mpilite::World::Main& program, int argc, char** argv, const char* tool,
                  const ReplaySettings& replay = {});

} // namespace mpisim
