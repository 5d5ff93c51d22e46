// MPI info objects: ordered (key, value) string pairs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "handle_table.hpp"
#include "mpi.h"

namespace mpilite {

using InfoEntries = std::vector<std::pair<std::string, std::string>>; ///< in the order set

/// The info objects the program holds. MPI_INFO_ENV exists always and is empty: the simulated
/// processes were not started by mpiexec with arguments of their own.
class InfoTable {
public:
  /// The entries of `h`, or null if it is not an info object.
  InfoEntries* find(MPI_Info h) {
    if (h == MPI_INFO_ENV) return &env_;
    return table_.find(h);
  }
  MPI_Info add(InfoEntries entries = {}) { return table_.add(std::move(entries)); }
  /// Frees an info object the program made; false for MPI_INFO_ENV and invalid handles.
  bool erase(MPI_Info h) {
    if (h == MPI_INFO_ENV || !table_.find(h)) return false;
    table_.erase(h);
    return true;
  }

private:
  InfoEntries env_;
  HandleTable<InfoEntries> table_{0x9c000000u};
};

} // namespace mpilite
