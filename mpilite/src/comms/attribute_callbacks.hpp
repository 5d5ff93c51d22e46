// What attribute caching on communicators, datatypes and windows shares: running the program's
// copy and delete callbacks, whose signatures are the same for every kind (handles are ints).
#pragma once

#include <functional>
#include <vector>

#include "attributes.hpp"
#include "comm_local.hpp"

namespace mpilite {

class ApiCall;

/// Runs `k`'s delete callback, if it has one, on `value` of `object`. A failing callback's code is
/// raised on `errors`. The callback may use MPI, even on the object's attributes: the caller holds
/// no reference into them across this call.
int run_delete_callback(ApiCall& c, MPI_Comm errors, const Keyval& k, int object, int keyval,
                        void* value);

/// Runs the copy callbacks of `values`, the attributes of `from` in the order set (a copy: the
/// callbacks may change the list), and calls `keep(keyval, copy)` for each value a callback
/// copies. `find` gives a keyval's callbacks, or null if it is gone. A failing callback's code is
/// raised on `errors`.
int run_copy_callbacks(ApiCall& c, MPI_Comm errors, int from, const std::vector<Attribute>& values,
                       const std::function<const Keyval*(int)>& find,
                       const std::function<void(int, void*)>& keep);

} // namespace mpilite
