// User-defined reduction operations (MPI_Op_create), by handle.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "op.hpp"

namespace mpilite {

/// The user ops of one host process. Every rank creates its own (handles are per process in
/// MPI, and each rank is a process of the target); freed slots are reused.
class OpTable {
public:
  /// Registers user op `op` (its function and commutativity) and returns its new handle.
  MPI_Op add(const Op& op);
  /// The user op of `h`, or null (builtin handles are not in this table).
  const Op* find(MPI_Op h) const;
  /// Frees user op `h`; false if it is not one.
  bool free(MPI_Op h);

private:
  std::deque<Op> ops_; // handle = kUserOpBase | index; stable addresses
  std::vector<std::uint32_t> free_;
};

} // namespace mpilite
