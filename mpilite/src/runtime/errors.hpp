// MPI error classes, their strings, and error handlers.
#pragma once

#include <string>

#include "mpi.h"

namespace mpilite {

class World;
struct Rank;

/// Whether `code` is an error code of mpisim (every code is its own class).
bool is_error_code(int code);

/// "MPI_ERR_RANK: invalid rank" style description of an error class.
const char* error_class_name(int code);
const char* error_class_text(int code);

/// Reports error `code` of MPI call `call` by `rank` on `comm` (MPI_COMM_NULL: MPI_COMM_WORLD),
/// following the rank's error handler for `comm`: MPI_ERRORS_ARE_FATAL (or MPI_ERRORS_ABORT) ends
/// the simulation with a message naming the rank, the call and `detail`; MPI_ERRORS_RETURN
/// returns `code`; a handler of the program is called with the communicator and the code, then
/// `code` is returned. `detail` is taken by value and moved: a fatal error never returns to the
/// caller's frame, whose temporaries would leak.
int raise_error(World& w, Rank& rank, MPI_Comm comm, const char* call, int code,
                std::string detail);

/// The same for an error on a file or a window, following the object's `handler` (for
/// MPI_FILE_NULL the rank's handler of MPI_FILE_NULL). A handler of the program, made by
/// MPI_File_create_errhandler or MPI_Win_create_errhandler, is called with `object`: the address
/// of the object's handle.
int raise_object_error(World& w, Rank& rank, void* object, MPI_Errhandler handler, const char* call,
                       int code, std::string detail);

} // namespace mpilite
