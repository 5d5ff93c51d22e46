// Error handlers made by the program (MPI_Comm_create_errhandler).
#pragma once

#include "handle_table.hpp"
#include "mpi.h"

namespace mpilite {

/// The program's error handlers. A handler lives while the program holds its handle or a
/// communicator uses it (MPI_Errhandler_free only drops the program's reference).
class Errhandlers {
public:
  /// Whether `h` is a predefined handler or a live handler of the program.
  bool valid(MPI_Errhandler h) {
    return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT ||
           table_.find(h);
  }
  /// The function of a program's handler; null for the predefined ones.
  MPI_Comm_errhandler_function* function(MPI_Errhandler h) {
    Entry* e = table_.find(h);
    return e ? e->fn : nullptr;
  }
  MPI_Errhandler add(MPI_Comm_errhandler_function* fn) { return table_.add({fn, 1}); }
  /// Takes / drops a reference to `h` (nothing for the predefined handlers).
  void retain(MPI_Errhandler h) {
    if (Entry* e = table_.find(h)) ++e->refs;
  }
  void release(MPI_Errhandler h) {
    Entry* e = table_.find(h);
    if (e && --e->refs == 0) table_.erase(h);
  }
  /// Makes `slot` (an object's handler) `h`, moving the reference.
  void replace(MPI_Errhandler& slot, MPI_Errhandler h) {
    retain(h);
    release(slot);
    slot = h;
  }

private:
  struct Entry {
    MPI_Comm_errhandler_function* fn;
    int refs;
  };
  HandleTable<Entry> table_{0x94000000u};
};

} // namespace mpilite
