// What the error handler entry points of communicators, files and windows share.
#pragma once

#include "api_call.hpp"

namespace mpilite {

/// MPI_Comm_create_errhandler, MPI_File_create_errhandler, MPI_Win_create_errhandler: a handler of
/// the program. The function is stored as a communicator handler's; raise_object_error calls
/// those of files and windows with their own signature.
int create_errhandler(ApiCall& c, void (*fn)(), MPI_Errhandler* errhandler);

} // namespace mpilite
