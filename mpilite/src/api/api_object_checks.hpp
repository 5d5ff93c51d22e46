// Argument checks for groups and info objects, shared by the API files that take them.
#pragma once

#include <memory>

#include "api_call.hpp"

namespace mpilite {

/// The members of group `h` (MPI_GROUP_EMPTY: none), or MPI_ERR_GROUP through `c` (raised on
/// `comm`: the communicator of the call, or MPI_COMM_WORLD for calls that have none).
inline int check_group(ApiCall& c, MPI_Group h, std::shared_ptr<const RankList>& out,
                       MPI_Comm comm = MPI_COMM_WORLD) {
  if (const auto* g = c.w.groups().find(h)) {
    out = *g;
    return MPI_SUCCESS;
  }
  return c.error(comm, MPI_ERR_GROUP, "invalid group {:#x}", static_cast<unsigned>(h));
}

/// The entries of info object `h`, or MPI_ERR_INFO through `c`. MPI_INFO_NULL is accepted (as
/// no entries, `out` null) where MPI allows it (`allow_null`).
inline int check_info(ApiCall& c, MPI_Info h, InfoEntries*& out, bool allow_null,
                      MPI_Comm comm = MPI_COMM_WORLD) {
  out = nullptr;
  if (allow_null && h == MPI_INFO_NULL) return MPI_SUCCESS;
  out = c.w.infos().find(h);
  if (out) return MPI_SUCCESS;
  return c.error(comm, MPI_ERR_INFO, "invalid info object {:#x}", static_cast<unsigned>(h));
}

} // namespace mpilite
