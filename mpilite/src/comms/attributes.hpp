// Attribute caching on communicators (MPI-3.1 section 6.7): keyvals, and the rules for when the
// program's copy and delete callbacks run.
#pragma once

#include <array>

#include "comm.hpp"
#include "handle_table.hpp"
#include "mpi.h"

namespace mpilite {

class ApiCall;

struct Keyval {
  MPI_Comm_copy_attr_function* copy;  ///< null: MPI_COMM_NULL_COPY_FN (never copied)
  MPI_Comm_delete_attr_function* del; ///< null: MPI_COMM_NULL_DELETE_FN
  void* extra_state;
  int refs; ///< the program's handle, plus one per attribute set with it
  /// The program freed its handle. Freeing it again while attributes keep the keyval alive is
  /// accepted, as MPICH accepts it (a delete callback that frees its keyval does it once per
  /// attribute).
  bool freed = false;
};

/// The keyvals of the host process: the program's, and the predefined attributes.
class Keyvals {
public:
  explicit Keyvals(int world_size);

  /// A keyval the program made, or null.
  Keyval* find(int keyval) { return table_.find(keyval); }
  /// The value of predefined attribute `keyval` (a pointer to an int, as MPI returns it), or null
  /// if `keyval` is not a predefined attribute.
  void* predefined(int keyval);

  int add(const Keyval& k) { return table_.add(k); }
  void retain(int keyval) {
    if (Keyval* k = find(keyval)) ++k->refs;
  }
  void release(int keyval) {
    Keyval* k = find(keyval);
    if (k && --k->refs == 0) table_.erase(keyval);
  }

private:
  HandleTable<Keyval> table_{0xa4000000u};
  // MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE,
  // MPI_APPNUM: their values, at addresses that stay valid for the run.
  std::array<int, 7> values_;
};

// The operations below act on the calling rank's attributes of `comm` (attributes are local to
// each process) and report errors through `c`.

/// MPI_Comm_set_attr: an existing value is first deleted as by delete_attribute.
int set_attribute(ApiCall& c, const Comm& comm, int keyval, void* value);
/// MPI_Comm_get_attr: `*found` tells whether `comm` has a value for `keyval`.
int get_attribute(ApiCall& c, const Comm& comm, int keyval, void** value, bool* found);
/// MPI_Comm_delete_attr: runs the delete callback; the value goes only if it succeeds.
int delete_attribute(ApiCall& c, const Comm& comm, int keyval);
/// MPI_Comm_dup: gives `to` the values of `from` whose copy callbacks say so, in the order set.
int copy_attributes(ApiCall& c, const Comm& from, const Comm& to);
/// MPI_Comm_free (and MPI_Finalize on MPI_COMM_SELF): deletes every value, last set first.
int delete_attributes(ApiCall& c, const Comm& comm);

} // namespace mpilite
