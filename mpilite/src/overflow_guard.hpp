// Turns a fiber stack overflow into a clear message instead of a bare segmentation fault.
#pragma once

#include <cstddef>

#include "stack_pool.hpp"

namespace mpilite {

/// Installs a SIGSEGV handler on an alternate signal stack that recognises faults in the guard
/// pages of `pool`, and faults of a fiber whose stack pointer is below its stack, as overflows
/// of the running fiber. (With a guard per block of stacks, the scheduler also checks a canary
/// and the stack pointer at every switch.)
void install_overflow_guard(const StackPool& pool);

/// Forgets `pool` (it is being destroyed); later faults get the default action.
void forget_overflow_guard(const StackPool& pool);

/// Names stack slots in messages: slot i belongs to world rank rank_of_slot[i].
void set_overflow_rank_names(const int* rank_of_slot, std::size_t stack_size);

/// Prints "rank R overflowed its stack (...); set MPISIM_STACK" and exits the process.
[[noreturn]] void report_stack_overflow(std::size_t slot);

} // namespace mpilite
