// The end of a call to an MPI function that mpisim does not implement.
#pragma once

namespace mpilite {

/// Ends the simulation like a fatal MPI error, whatever the error handler, with the message
/// "rank R: <name> is not implemented by mpisim (see docs/mpi-coverage.md)" and exit code 1.
/// Called outside a simulated rank, prints the same without the rank and exits the process
/// with code 1.
[[noreturn]] void unimplemented(const char* name);

} // namespace mpilite
