// MPI entry points: the MPI-1 names of the error handler calls (removed in MPI-3.0, still used
// by old programs), which are the MPI_Comm_ ones under another name.
#include "api_call.hpp"

extern "C" {

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  return PMPI_Comm_set_errhandler(comm, errhandler);
}
MPISIM_WEAK_ALIAS(Errhandler_set)

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return PMPI_Comm_get_errhandler(comm, errhandler);
}
MPISIM_WEAK_ALIAS(Errhandler_get)

} // extern "C"
