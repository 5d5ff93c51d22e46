// Stand-in files for MPI-IO, which mpisim-replay switches on: a replay must neither read nor
// change the recorded run's files, and its time depends on the sizes of accesses only
// (mpilite/src/io/host_file.cpp keeps them).
#pragma once

#include <string>

namespace mpilite {

/// From now on this host process's files are stand-ins: no host file is opened, resized or
/// deleted; a write goes nowhere, a read finds every byte it asks for (the buffer left as it
/// is), a file's size is 0, and an open succeeds unless its path is stand_in_path() of an error.
void use_stand_in_files();
/// Whether use_stand_in_files() was called.
bool stand_in_files();
/// The path a replay opens to repeat a recorded open that failed with errno `err` (0: one that
/// succeeded).
std::string stand_in_path(int err);

} // namespace mpilite
