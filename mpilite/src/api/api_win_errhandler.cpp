// MPI entry points: error handlers of windows (MPI-3.1 section 8.3.2). A window starts with
// MPI_ERRORS_ARE_FATAL, whatever its communicator's handler; errors of window calls that name the
// window follow its handler (argument checks shared with point-to-point follow the communicator's).
#include "api_errhandler.hpp"
#include "api_win.hpp"

using namespace mpilite;

extern "C" {

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function* fn, MPI_Errhandler* errhandler) {
  ApiCall c("MPI_Win_create_errhandler");
  return create_errhandler(c, reinterpret_cast<void (*)()>(fn), errhandler);
}
MPISIM_WEAK_ALIAS(Win_create_errhandler)

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  ApiCall c("MPI_Win_set_errhandler");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!c.w.errhandlers().valid(errhandler))
    return win_error(c, *w, MPI_ERR_ARG, "invalid error handler {:#x}",
                     static_cast<unsigned>(errhandler));
  c.w.errhandlers().replace(w->errhandler, errhandler);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_set_errhandler)

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  ApiCall c("MPI_Win_get_errhandler");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!errhandler) return win_error(c, *w, MPI_ERR_ARG, "null errhandler argument");
  *errhandler = w->errhandler;
  c.w.errhandlers().retain(*errhandler);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_get_errhandler)

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  ApiCall c("MPI_Win_call_errhandler");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  win_error(c, *w, errorcode, "error code {} raised by the program", errorcode);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_call_errhandler)

} // extern "C"
