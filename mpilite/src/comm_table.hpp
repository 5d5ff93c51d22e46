// The communicators of one host process, by handle.
#pragma once

#include <deque>
#include <vector>

#include "comm.hpp"

namespace mpilite {

/// Owns every communicator of the host process. MPI_COMM_WORLD and MPI_COMM_SELF always exist;
/// communicators made by the program are shared by all their local members, which therefore see
/// the same handle.
class CommTable {
public:
  explicit CommTable(int world_size);

  /// The communicator of handle `h`, or null.
  Comm* find(MPI_Comm h);

private:
  std::deque<Comm> comms_; // index 0: WORLD, 1: SELF; stable addresses
};

} // namespace mpilite
