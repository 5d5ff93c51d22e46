// The simulator's main() once the program is known: reads the settings from the environment,
// simulates `program` on every rank, prints the report and returns the run's exit code. Programs
// built with mpisimcc get it through runtime_main.cpp; mpisim-replay calls it with its replayer.
#pragma once

#include "world.hpp"

namespace mpisim {

/// `tool` prefixes error messages ("mpisim").
int simulate_main(const mpilite::World::Main& program, int argc, char** argv, const char* tool);

} // namespace mpisim
