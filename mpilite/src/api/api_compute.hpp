// Declared compute time: what MPISIM_Compute charges, in exact picoseconds (mpisim-replay
// charges recorded compute through it).
#pragma once

#include "sim_time.hpp"

namespace mpilite {

/// Charges `ps` of compute to the calling rank's clock, as an MPI call named `call`
/// (MPISIM_Compute, or the C library's sleep that advances the clock).
void charge_compute(SimTime ps, const char* call = "MPISIM_Compute");

} // namespace mpilite
