// Argument checks and bookkeeping shared by the MPI entry points of datatypes. Errors of calls
// without a communicator go to MPI_COMM_WORLD's error handler (MPI-3.1 section 8.3).
#pragma once

#include <memory>

#include "api_call.hpp"

namespace mpilite {

/// Looks up datatype handle `h`, given as argument `what`; committed or not.
int lookup_type(ApiCall& c, MPI_Datatype h, const Datatype*& out, const char* what = "datatype");

/// MPI_ERR_ARG unless `p` is non-null; `what` names the argument.
int check_pointer(ApiCall& c, const void* p, const char* what);

/// MPI_ERR_COUNT for a negative `count`.
int check_nonnegative_count(ApiCall& c, long count, const char* what = "count");

/// MPI_ERR_ARG for a negative block length `length` (block `index`, or -1 for the only one).
int check_blocklength(ApiCall& c, long length, long index = -1);

/// An old type as MPI_Type_get_contents returns it: predefined types are shared, derived types
/// copied, since the user may free them while the new type lives.
std::shared_ptr<const Datatype> keep(const Datatype& old);

/// Stores the new type `t`, made by `contents`, and writes its handle to `newtype`.
int publish(ApiCall& c, Datatype&& t, Contents&& contents, MPI_Datatype* newtype);

/// Records the contents of `h`, just made by the int form of a large-count constructor, as the
/// large-count constructor's (MPI-4.0 section 5.1.13): its counts and displacements become large
/// counts.
void record_large_counts(MPI_Datatype h);

} // namespace mpilite
