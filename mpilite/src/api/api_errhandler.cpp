// MPI entry points: error handlers of communicators (MPI-3.1 section 8.3).
#include "api_errhandler.hpp"

using namespace mpilite;

int mpilite::create_errhandler(ApiCall& c, void (*fn)(), MPI_Errhandler* errhandler) {
  if (int e = c.check_init()) return e;
  if (!fn || !errhandler)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null function or errhandler argument");
  *errhandler = c.w.errhandlers().add(reinterpret_cast<MPI_Comm_errhandler_function*>(fn));
  return MPI_SUCCESS;
}

extern "C" {

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* comm_errhandler_fn,
                                MPI_Errhandler* errhandler) {
  ApiCall c("MPI_Comm_create_errhandler");
  return create_errhandler(c, reinterpret_cast<void (*)()>(comm_errhandler_fn), errhandler);
}
MPISIM_WEAK_ALIAS(Comm_create_errhandler)

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  ApiCall c("MPI_Comm_set_errhandler");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (!c.w.errhandlers().valid(errhandler))
    return c.error(comm, MPI_ERR_ARG, "invalid error handler {:#x}",
                   static_cast<unsigned>(errhandler));
  c.w.errhandlers().replace(c.r.comms.at(comm).errhandler, errhandler);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_set_errhandler)

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  ApiCall c("MPI_Comm_get_errhandler");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (!errhandler) return c.error(comm, MPI_ERR_ARG, "null errhandler argument");
  *errhandler = c.r.comms.errhandler(comm);
  c.w.errhandlers().retain(*errhandler); // a new reference, for MPI_Errhandler_free
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_get_errhandler)

int PMPI_Errhandler_free(MPI_Errhandler* errhandler) {
  ApiCall c("MPI_Errhandler_free");
  if (int e = c.check_init()) return e;
  if (!errhandler || !c.w.errhandlers().valid(*errhandler))
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid error handler {:#x}",
                   errhandler ? static_cast<unsigned>(*errhandler) : 0u);
  // Communicators that use it keep it until they stop; the predefined ones are never freed.
  c.w.errhandlers().release(*errhandler);
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Errhandler_free)

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  ApiCall c("MPI_Comm_call_errhandler");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  c.error(comm, errorcode, "error code {} raised by the program", errorcode);
  return MPI_SUCCESS; // the handler was called (and returned)
}
MPISIM_WEAK_ALIAS(Comm_call_errhandler)

} // extern "C"
