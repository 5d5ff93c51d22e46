// MPISIM_AUTO_SHARED_MALLOC: the malloc interposer (malloc_interpose.cpp) folds every block of at
// least a threshold that a rank allocates in its own code (not inside an MPI call, not on
// another thread), so that unmodified programs fold their large arrays.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mpilite {

/// Folds allocations of at least `threshold` bytes made by ranks' own code on the simulation
/// thread from now on; 0 turns folding off. Called by the simulation before its ranks start.
void set_auto_fold(std::size_t threshold);

/// Who holds a folded block allocated or freed now (fold_allocate's `holder`): the running rank
/// on the ranks' thread, -1 elsewhere.
int fold_holder();

/// The fold site of a block allocated by the call that returns to `caller`: its offset in its
/// object file, the same in every copy of a program loaded once per rank (mpisimfort).
std::uint64_t fold_site_of(const void* caller);

} // namespace mpilite
