// MPISIM_FRESH_HEAP: the malloc interposer (malloc_interpose.cpp) makes every block it hands a
// rank's code read as zero, as memory new to a fresh process does.
#pragma once

#include <cstddef>

namespace mpilite {

/// From now on, memory that malloc, realloc (past the old size) and the aligned allocators
/// return to a rank's code reads as zero. Blocks the C library takes from fresh kernel pages (its
/// large, mmap'd blocks) are left untouched, so that their pages are committed when the program
/// first writes them, as natively, and not at the allocation. Under AddressSanitizer its own
/// allocator does the filling (fresh_heap.cpp), and this does nothing. Called before the ranks
/// start.
void zero_new_blocks();

/// A block of `n` bytes that the simulator itself writes whole before it reads it (a message's
/// payload): glibc's malloc, never zeroed, so that the fresh heap does not write every message
/// twice. Null when memory runs out. Release it with std::free.
void* allocate_unzeroed(std::size_t n);

/// A block of `n` bytes that the simulator allocates for a rank's code to own (MPI_Alloc_mem):
/// zeroed as the rank's own malloc's blocks are. The simulator's other blocks, allocated while
/// it runs (outside the ranks, or inside an MPI call), are not. Release it with std::free.
void* allocate_for_rank(std::size_t n);

} // namespace mpilite
