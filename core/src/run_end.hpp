// How a run, or the part of it one layer drives, ended: one vocabulary for the scheduler, the
// world, the synchronizer, the host link and the report.
#pragma once

#include <cstdint>

namespace mpilite {

enum class RunEnd : std::uint8_t {
  /// Not ended: the caller goes on (a synchronizer that let a rank run again).
  None,
  /// No rank can run and some have not finished: the caller decides what comes next (input
  /// from another host process, a network decision, or a deadlock).
  Blocked,
  /// Every rank returned from its main, and every host process agrees.
  Finished,
  /// No rank can ever run again without a message no rank will send.
  Deadlock,
  /// The scheduler was asked to stop; the world says why (Abort, FatalError or Limit).
  Stopped,
  /// A rank called MPI_Abort (or exited with an error code the run ends on).
  Abort,
  /// An MPI error that ends the run (the handler is MPI_ERRORS_ARE_FATAL, or mpisim refused).
  FatalError,
  /// A limit of the simulation (time, memory) was reached.
  Limit,
};

} // namespace mpilite
