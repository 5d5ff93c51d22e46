// Ending the host process from the simulator's own code.
#pragma once

#include <sys/syscall.h>
#include <unistd.h>

namespace mpilite {

/// Ends the host process at once with `code`, as _exit() does: no exit handlers, no stdio
/// flush (flush first what must be seen). A program's _exit(), _Exit() and quick_exit() end
/// only the calling rank (mpilite's exit_interpose.cpp), so the simulator's own fatal exits,
/// which may run in a rank's fiber or its signal handler, make the system call themselves.
/// Defined here, so that the MPICH transport, a module that links no layer, has it too.
/// Async-signal-safe.
[[noreturn]] inline void end_process_now(int code) noexcept {
  for (;;)
    syscall(SYS_exit_group, code);
}

} // namespace mpilite
