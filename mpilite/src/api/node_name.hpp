// The name of a rank's node: what MPI_Get_processor_name and the C library's host name
// (gethostname, uname, gfortran's HOSTNM) give the program, so that a code that groups its ranks
// by host name finds the nodes of the simulated machine, as MPI_COMM_TYPE_SHARED does.
#pragma once

#include <string>

namespace mpilite {

/// The calling rank's node name, "mpisim-node-<node>", read by `call`. The read is recorded
/// (what the rank does next may depend on its node): a replay on another node layout says so.
std::string node_name(const char* call);

} // namespace mpilite
