// MPISIM_AUTO_SHARED_MALLOC: the malloc interposer (malloc_interpose.cpp) folds every block of at
// least a threshold that a rank allocates in its own code (not inside an MPI call, not on
// another thread), so that unmodified programs fold their large arrays.
#pragma once

#include <cstddef>

namespace mpilite {

/// Folds allocations of at least `threshold` bytes made by ranks on the calling thread from now
/// on; 0 turns folding off. Called by the simulation before its ranks start.
void set_auto_fold(std::size_t threshold);

} // namespace mpilite
