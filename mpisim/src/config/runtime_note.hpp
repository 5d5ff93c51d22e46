// The ELF note that marks an executable holding the simulator (emitted by simulator_main.cpp):
// mpisimrun refuses a program without it, which would run unsimulated.
#pragma once

namespace mpisim {

inline constexpr char kRuntimeNoteName[] = "mpisim";
inline constexpr unsigned kRuntimeNoteType = 1;

} // namespace mpisim
