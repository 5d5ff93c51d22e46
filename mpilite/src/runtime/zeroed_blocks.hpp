// MPISIM_FRESH_HEAP: the malloc interposer (malloc_interpose.cpp) makes every block it hands out
// read as zero, as memory new to a fresh process does.
#pragma once

namespace mpilite {

/// From now on, memory that malloc, realloc (past the old size) and the aligned allocators
/// return reads as zero. Blocks the C library takes from fresh kernel pages (its large, mmap'd
/// blocks) are left untouched, so that their pages are committed when the program first writes
/// them, as natively, and not at the allocation. Under AddressSanitizer its own allocator does
/// the filling (fresh_heap.cpp), and this does nothing. Called before the ranks start.
void zero_new_blocks();

} // namespace mpilite
