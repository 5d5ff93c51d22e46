// Carrying out one-sided operations at their target: the part that fence, post/start/complete/wait
// and passive target synchronization share. An operation travels as a message (window.hpp,
// RmaHeader); where it is served and when is the synchronization's business.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "window.hpp"

namespace mpilite {

/// The bytes [first, end) of a window that `count` (> 0) elements of `type` at displacement
/// `disp` (in units of `disp_unit`) touch, and whether they lie inside a window of `size` bytes.
struct TouchedBytes {
  MPI_Aint first;
  MPI_Aint end;
  bool inside;
};
TouchedBytes touched_bytes(MPI_Aint disp, int disp_unit, int count, const Datatype& type,
                           MPI_Aint size);

/// Whether the bytes `b` (addresses, for a dynamic window) lie inside one region attached to
/// dynamic window `w` (MPI_Win_attach).
bool attached_covers(const Window& w, const TouchedBytes& b);

/// Whether an operation of this kind sends data back to its origin.
bool rma_returns_data(RmaKind kind);

/// Carries out the operation `message` of rank `source` on window `w` of this target. The data
/// an operation returns (gets and atomics: the target's data before the operation) is appended
/// to `reply`. Returns MPI_SUCCESS, or MPI_ERR_RMA_RANGE with the reason in `why` if the
/// operation reaches outside the window (for a dynamic window: outside the attached memory).
int apply_rma(Window& w, int source, std::span<const std::byte> message,
              std::vector<std::byte>& reply, std::string& why);

} // namespace mpilite
