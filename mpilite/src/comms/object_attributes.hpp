// Attribute caching on datatypes and windows (MPI-3.1 sections 6.7.3 and 6.7.4): keyvals made
// for one kind of object, and each rank's values. Values are local to the rank that sets them,
// also on the predefined datatypes that all ranks of a host process share.
#pragma once

#include "mpi.h"

namespace mpilite {

class ApiCall;

/// The objects that carry these attributes; a keyval made for one kind is invalid on the other.
enum class AttrObject { Type, Win };

/// MPI_Type_create_keyval, MPI_Win_create_keyval. The callbacks of all kinds take an int handle.
int create_object_keyval(ApiCall& c, AttrObject kind, MPI_Type_copy_attr_function* copy,
                         MPI_Type_delete_attr_function* del, void* extra_state, int* keyval);
/// MPI_Type_free_keyval, MPI_Win_free_keyval: values set with it keep it alive until they go.
int free_object_keyval(ApiCall& c, AttrObject kind, int* keyval);

// The operations below act on the calling rank's values for `object`; `errors` is the
// communicator whose error handler reports a fault.

/// MPI_Type_set_attr, MPI_Win_set_attr: an existing value is first deleted.
int set_object_attr(ApiCall& c, AttrObject kind, int object, MPI_Comm errors, int keyval,
                    void* value);
/// MPI_Type_get_attr, MPI_Win_get_attr (for keyvals the program made).
int get_object_attr(ApiCall& c, AttrObject kind, int object, MPI_Comm errors, int keyval,
                    void** value, bool* found);
/// MPI_Type_delete_attr, MPI_Win_delete_attr: runs the delete callback; the value goes only if
/// it succeeds.
int delete_object_attr(ApiCall& c, AttrObject kind, int object, MPI_Comm errors, int keyval);
/// MPI_Type_dup: gives `to` the values of `from` whose copy callbacks say so, in the order set.
/// When a callback fails, `to` is left with no values and its error is returned.
int copy_object_attrs(ApiCall& c, AttrObject kind, int from, int to, MPI_Comm errors);
/// MPI_Type_free, MPI_Win_free: deletes every value of `object`, last set first.
int delete_object_attrs(ApiCall& c, AttrObject kind, int object, MPI_Comm errors);

} // namespace mpilite
