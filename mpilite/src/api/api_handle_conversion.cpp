// MPI entry points: conversions between C handles and Fortran handles (MPI-3.1 section 17.2.4),
// and between C and Fortran statuses. Handles other than files are ints in mpisim, and the
// Fortran bindings pass an INTEGER handle to C unchanged (scripts/gen-fortran-interface), so a
// conversion is the identity; files, which are pointers, have their own table (api_file.cpp).
// Conversions are local and allowed at any time, before MPI_Init too (no ApiCall).
#include <cstring>

#include "api_call.hpp"

static_assert(sizeof(MPI_Status) == sizeof(MPI_F08_status) &&
                  sizeof(MPI_Status) == 5 * sizeof(MPI_Fint),
              "a C status, a Fortran status and an mpi_f08 status are the same five integers");

/// The pair MPI_<kind>_c2f / MPI_<kind>_f2c of a handle type that is a Fortran INTEGER.
#define MPISIM_IDENTITY_CONVERSION(kind, Handle)                                                   \
  MPI_Fint PMPI_##kind##_c2f(Handle handle) {                                                      \
    return static_cast<MPI_Fint>(handle);                                                          \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(kind##_c2f)                                                                    \
  Handle PMPI_##kind##_f2c(MPI_Fint handle) {                                                      \
    return static_cast<Handle>(handle);                                                            \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(kind##_f2c)

namespace {

/// Copies one status form to another; MPI_ERR_ARG (returned, as MPICH does, without calling an
/// error handler) for a null or ignored status.
int copy_status(const void* from, void* to) {
  if (!from || !to || from == MPI_STATUS_IGNORE || to == MPI_STATUS_IGNORE) return MPI_ERR_ARG;
  std::memcpy(to, from, sizeof(MPI_Status));
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

MPISIM_IDENTITY_CONVERSION(Comm, MPI_Comm)
MPISIM_IDENTITY_CONVERSION(Errhandler, MPI_Errhandler)
MPISIM_IDENTITY_CONVERSION(Group, MPI_Group)
MPISIM_IDENTITY_CONVERSION(Info, MPI_Info)
MPISIM_IDENTITY_CONVERSION(Message, MPI_Message)
MPISIM_IDENTITY_CONVERSION(Op, MPI_Op)
MPISIM_IDENTITY_CONVERSION(Request, MPI_Request)
MPISIM_IDENTITY_CONVERSION(Type, MPI_Datatype)
MPISIM_IDENTITY_CONVERSION(Win, MPI_Win)
MPISIM_IDENTITY_CONVERSION(Session, MPI_Session)

// Every status form has the C layout, so each conversion is the same copy.
#define MPISIM_STATUS_CONVERSION(NAME, FROM, TO)                                                   \
  int PMPI_Status_##NAME(const FROM* from, TO* to) {                                               \
    return copy_status(from, to);                                                                  \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(Status_##NAME)

MPISIM_STATUS_CONVERSION(c2f, MPI_Status, MPI_Fint)
MPISIM_STATUS_CONVERSION(f2c, MPI_Fint, MPI_Status)
MPISIM_STATUS_CONVERSION(c2f08, MPI_Status, MPI_F08_status)
MPISIM_STATUS_CONVERSION(f082c, MPI_F08_status, MPI_Status)
MPISIM_STATUS_CONVERSION(f2f08, MPI_Fint, MPI_F08_status)
MPISIM_STATUS_CONVERSION(f082f, MPI_F08_status, MPI_Fint)

} // extern "C"
