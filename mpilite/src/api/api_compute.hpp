// A rank's program and its clock: declared compute time (what MPISIM_Compute charges, in exact
// picoseconds; mpisim-replay charges recorded compute through it) and the clock's reads, which
// charge the compute before them.
#pragma once

#include <cstdint>

#include "sim_time.hpp"

namespace mpilite {

/// Charges `ps` of compute to the calling rank's clock, as an MPI call named `call`
/// (MPISIM_Compute, or the C library's sleep that advances the clock).
void charge_compute(SimTime ps, const char* call = "MPISIM_Compute");

/// The calling rank's clock as its program reads it (MPI_Wtime, MPISIM_Clock_ps, the C library's
/// clocks; `call` names the reader), its compute so far charged first. A loop that waits for the
/// clock to pass a value never ends when nothing in it takes simulated time (`--cpu off`): the
/// kClockRepeatLimit-th read in a row of the same instant by the same rank ends the run with an
/// error that says so, instead of a run that never ends.
SimTime read_clock(const char* call);

/// How many reads in a row of one instant read_clock takes for a loop that never ends. A loop
/// that calibrates itself or times short steps reads an instant a few times; 2^24 reads cost
/// about half a second of host time.
inline constexpr std::uint32_t kClockRepeatLimit = 1u << 24;

} // namespace mpilite
