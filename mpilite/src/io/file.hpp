// MPI-IO's file handle (MPI-3.1 chapter 13): one per rank that opened the file. It holds the
// rank's view and individual file pointer; the shared file pointer belongs to all ranks of the
// open (one per host process: see SharedPointer::exact).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "datatype.hpp"
#include "mpi.h"

namespace mpilite {

/// The shared file pointer of one collective open, in etypes of the view.
struct SharedPointer {
  MPI_Offset offset = 0;
  /// Whether every rank of the open lives in this host process, so that this is the one
  /// shared pointer (independent shared-pointer calls need that).
  bool exact = true;
};

/// What a rank knows of a file it opened.
struct File {
  int fd = -1;
  std::string path;
  MPI_Comm comm = MPI_COMM_NULL; ///< a duplicate of the communicator of the open
  int amode = 0;
  bool atomic = false;
  MPI_Errhandler errhandler = MPI_ERRORS_RETURN;
  MPI_Info info = MPI_INFO_NULL; ///< hints given at open or later (kept, not interpreted)

  // The view: data starts `disp` bytes into the file and is laid out as copies of `filetype`;
  // positions count `etype`s. Handles are this file's own duplicates (predefined types as is).
  MPI_Offset disp = 0;
  MPI_Datatype etype_handle = MPI_BYTE;
  MPI_Datatype filetype_handle = MPI_BYTE;
  std::shared_ptr<const Datatype> etype;
  std::shared_ptr<const Datatype> filetype;

  MPI_Offset position = 0; ///< individual file pointer, in etypes
  std::shared_ptr<SharedPointer> shared;

  /// Its Fortran handle once MPI_File_c2f gave it one (0: none yet).
  MPI_Fint fortran = 0;

  /// A split collective begun and not yet ended: its status.
  bool split_pending = false;
  MPI_Status split_status{};
};

/// Bytes of the view's data stream from its start to position `etypes`.
inline std::size_t stream_offset(const File& f, MPI_Offset etypes) {
  return static_cast<std::size_t>(etypes) * f.etype->size;
}

/// Writes `n` packed bytes at byte `at` of the view's data stream; 0 or an errno.
int write_view(const File& f, std::size_t at, const std::byte* data, std::size_t n);
/// Reads up to `n` bytes from byte `at` of the view's data stream, stopping at the end of the
/// file; the bytes read in `got`; 0 or an errno.
int read_view(const File& f, std::size_t at, std::byte* data, std::size_t n, std::size_t& got);
/// The absolute byte offset in the file of byte `at` of the view's data stream.
MPI_Offset file_offset(const File& f, std::size_t at);

} // namespace mpilite

/// MPI_File points to this (mpi.h declares the type only).
struct mpisim_file {
  mpilite::File f;
};
