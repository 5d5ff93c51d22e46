// The hints an MPI object keeps (MPI_File_set_info, MPI_Win_set_info, ...): a copy of the info
// the program gave, handed back as a new info by the get_info calls.
#pragma once

#include "mpi.h"

namespace mpilite {

/// Sets the kept hints `kept` to a copy of `info` (MPI_INFO_NULL: none), freeing the old copy.
void replace_info(MPI_Info& kept, MPI_Info info);

/// A new info for the program with the kept hints (empty when there are none).
int copy_info(MPI_Info kept, MPI_Info* out);

} // namespace mpilite
