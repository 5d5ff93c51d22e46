// The host file behind an MPI file: POSIX calls that move whole byte ranges, and the MPI
// error class of what failed. Every use of the host's file system by MPI-IO goes through here,
// so that a replay can put stand-in files in its place.
#pragma once

#include <cstddef>
#include <string>

#include "mpi.h"
#include "stand_in_files.hpp"

namespace mpilite {

/// The MPI error class for the errno of a failed file call (MPI_ERR_NO_SUCH_FILE, ...).
int file_error_class(int err);

/// Opens `path` with MPI access mode `amode`; returns the descriptor or -(errno).
int open_host_file(const std::string& path, int amode);
void close_host_file(int fd);
/// Deletes the file at `path`; 0 or an errno.
int delete_host_file(const std::string& path);
/// The size of the open file in `size`; 0 or an errno.
int host_file_size(int fd, MPI_Offset& size);
/// Cuts or extends the open file to `size` bytes; 0 or an errno.
int resize_host_file(int fd, MPI_Offset size);

/// Writes all `n` bytes at `offset`; 0 or an errno.
int write_at(int fd, const void* data, std::size_t n, MPI_Offset offset);
/// Reads up to `n` bytes at `offset` into `data`, stopping at the end of the file; the bytes read
/// in `got`; 0 or an errno.
int read_at(int fd, void* data, std::size_t n, MPI_Offset offset, std::size_t& got);

} // namespace mpilite
