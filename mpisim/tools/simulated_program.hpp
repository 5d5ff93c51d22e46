// Whether a program given to mpisimrun holds the simulator: one built with plain gcc or with
// MPICH's mpicc would run unsimulated, print no report and exit 0.
#pragma once

#include <string>

namespace mpisim::tools {

/// Empty when `program` (a path, or a name looked up in PATH) may be run: an executable with
/// mpisim's runtime note (runtime_note.hpp), or a script (its interpreter may run one). Else
/// the reason it is refused, with the fix. A program that cannot be found or read is left to
/// the launch, which names the error.
std::string why_not_simulated(const std::string& program);

} // namespace mpisim::tools
