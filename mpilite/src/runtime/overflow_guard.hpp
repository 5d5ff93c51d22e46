// Turns a fault in a rank into a clear message instead of a bare signal: a fiber stack overflow
// is named as such; any other SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT in a rank names the rank,
// the MPI call it was in or had last made, and the signal, and exits with 128 + the signal's
// number, the code mpiexec gives for a process killed by it.
#pragma once

#include <cstddef>

#include "stack_pool.hpp"

namespace mpilite {

/// Installs the handlers of the fault signals on an alternate signal stack. A SIGSEGV in a
/// parked stack (stack copying) brings the stack back and returns. A SIGSEGV in the
/// guard pages of `pool`, or of a fiber whose stack pointer is below its stack, is a stack
/// overflow of the running fiber (with a guard per block of stacks, the scheduler also checks a
/// canary and the stack pointer at every switch); other faults name the rank they hit.
void install_overflow_guard(const StackPool& pool);

/// Forgets `pool` (it is being destroyed); later faults get the default action.
void forget_overflow_guard(const StackPool& pool);

/// Names stack slots in messages: slot i belongs to world rank rank_of_slot[i].
void set_overflow_rank_names(const int* rank_of_slot, std::size_t stack_size);

/// Prints "rank R overflowed its stack (...); set MPISIM_STACK" and exits the process.
[[noreturn]] void report_stack_overflow(std::size_t slot);

/// Ends the process with `code` once a fault is named; must not return.
using FaultExit = void (*)(int code);

/// How a fault in a rank ends the process (default, or null: _exit). With several host processes
/// the transport asks mpiexec to end the job with the code: a process that merely exits races
/// with mpiexec's clean-up of the others, which may then report another process's status. It
/// runs in the signal handler, so it should do little; should it not end the process within a
/// few seconds (a fault inside the C library's allocator, say), an alarm _exit()s with the code.
void set_fault_exit(FaultExit exit_fn);

} // namespace mpilite
