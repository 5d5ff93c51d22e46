// Reaching libgfortran's own entry points from the ones the runtime interposes (the program's
// calls of RANDOM_NUMBER, its I/O statements).
#pragma once

namespace mpilite {

/// libgfortran's own `name`; the run stops with a message if libgfortran is not loaded. The
/// library is loaded with the program's copies, outside the executable's scope (loader_main.cpp),
/// so it is reached by its name, not by RTLD_NEXT.
void* libgfortran_symbol(const char* name);

} // namespace mpilite
