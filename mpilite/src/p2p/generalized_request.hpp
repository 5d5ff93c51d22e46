// Generalized requests (MPI-3.1 section 12.2): operations the program carries out itself and
// declares done with MPI_Grequest_complete. MPI's completion calls ask the program's callbacks
// for the status, and to free or cancel the operation.
#pragma once

#include "mpi.h"
#include "request.hpp"

namespace mpilite {

class World;

struct GeneralizedCallbacks {
  MPI_Grequest_query_function* query = nullptr;
  MPI_Grequest_free_function* free = nullptr;
  MPI_Grequest_cancel_function* cancel = nullptr;
  void* extra_state = nullptr;
  bool freed = false; ///< MPI_Request_free came before MPI_Grequest_complete
};

/// A new, incomplete generalized request of rank `r`.
Request* start_generalized(World& w, Rank& r, const GeneralizedCallbacks& callbacks);

/// The callbacks of `q` if it is a generalized request, else null.
const GeneralizedCallbacks* generalized(const Request& q);

/// MPI_Grequest_complete: `q` completes at simulated time `at`. A request the program freed
/// already is freed now.
void complete_generalized(World& w, Request& q, SimTime at);

/// The status of the completed generalized request `q` as its query callback gives it now (the
/// callback's error code in MPI_ERROR): MPI-3.1 section 12.2 runs the callback in the wait or
/// test that completes the request (or MPI_Request_get_status), so it sees what the program did
/// after MPI_Grequest_complete (a count it updated, an MPI_Cancel).
void query_generalized(Request& q);

/// Runs the free callback of the generalized request `q` (unless it ran) and forgets its
/// callbacks; the caller frees `q`.
void release_generalized(Request& q);

/// MPI_Request_free of the generalized request `q`: its free callback runs now (as in MPICH);
/// `q` stays until the program completes it.
void free_generalized_early(Request& q);

} // namespace mpilite
