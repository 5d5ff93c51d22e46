// What the MPI-IO entry points share: the file handle check, errors that follow the file's
// handler, and the simulated cost of an access (docs/model.md, File I/O).
#pragma once

#include <cstddef>

#include "api_call.hpp"
#include "file.hpp"
#include "object_info.hpp"

namespace mpilite {

/// Raises error `code` of call `c` on `fh` (MPI_FILE_NULL: the rank's MPI_FILE_NULL handler).
template <class... Args>
int file_error(ApiCall& c, MPI_File fh, int code, fmt::format_string<Args...> f, Args&&... args) {
  const MPI_Errhandler handler = fh ? fh->f.errhandler : c.r.rare_or_default().file_errhandler;
  return raise_object_error(c.w, c.r, &fh, handler, c.name, code,
                            fmt::format(f, std::forward<Args>(args)...));
}

/// MPI_SUCCESS if `fh` is a file this rank has open; else the error.
int check_file(ApiCall& c, MPI_File fh);

/// Charges the calling rank an independent access of `bytes` bytes, which starts once its earlier
/// accesses (non-blocking ones too) have left its path to the file system.
void charge_access(ApiCall& c, std::size_t bytes);
/// A non-blocking independent access of `bytes` by the calling rank: when it completes, its
/// path to the file system taken from when the rank's earlier accesses leave it.
SimTime file_access_later(ApiCall& c, std::size_t bytes);
/// Charges one rank's part of a collective access on `f` (bytes: its own part): the slower of its
/// node's path and the shared file system moving what all ranks move. Collective over f.comm.
void charge_collective_access(ApiCall& c, const File& f, std::size_t bytes);

/// A handle of the file's own for `type`: predefined types as they are, derived ones duplicated
/// (the program may free its handle while the view uses the type). release_type frees it.
MPI_Datatype own_type(MPI_Datatype type);
void release_type(MPI_Datatype& type);

/// Registers / forgets a handle this host process gave out.
void add_live_file(MPI_File fh);
void remove_live_file(MPI_File fh);

} // namespace mpilite
