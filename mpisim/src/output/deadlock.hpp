// Describes a deadlocked target program: each blocked rank with the call it is in.
#pragma once

#include <string>
#include <vector>

#include "world.hpp"

namespace mpisim {

/// One line per rank that has not finished, e.g.
/// "rank 0: MPI_Ssend(dest=1, tag=0, comm=MPI_COMM_WORLD)".
std::vector<std::string> describe_blocked_ranks(mpilite::World& world);

} // namespace mpisim
