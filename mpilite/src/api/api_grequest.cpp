// MPI entry points: generalized requests and the status setters their query callbacks use
// (MPI-3.1 sections 12.2 and 12.3).
#include "api_call.hpp"
#include "generalized_request.hpp"
#include "world.hpp"

using namespace mpilite;

extern "C" {

int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                        MPI_Grequest_cancel_function* cancel_fn, void* extra_state,
                        MPI_Request* request) {
  ApiCall c("MPI_Grequest_start");
  if (int e = c.check_init()) return e;
  if (!request) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null request argument");
  *request = start_generalized(c.w, c.r, {query_fn, free_fn, cancel_fn, extra_state})->handle;
  MPISIM_RECORD_OP(c, "grequest_start", NewRequestArg{*request});
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Grequest_start)

int PMPI_Grequest_complete(MPI_Request request) {
  ApiCall c("MPI_Grequest_complete");
  if (int e = c.check_init()) return e;
  Request* q = c.w.request(request);
  if (!q || q->owner != &c.r || !generalized(*q) || q->complete)
    return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                   "request {:#x} is not a generalized request that is still pending",
                   static_cast<unsigned>(request));
  // The request completes at this point of its rank's run, wherever that is in simulated time:
  // the replay completes it at the same point.
  MPISIM_RECORD_OP(c, "grequest_complete", RequestArg{request});
  complete_generalized(c.w, *q, c.r.clock);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Grequest_complete)

int PMPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  ApiCall c("MPI_Status_set_elements_x");
  if (!status || status == MPI_STATUS_IGNORE)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null status argument");
  if (count < 0) return c.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "negative count {}", count);
  MPI_Count size = 0;
  if (int e = PMPI_Type_size_x(datatype, &size)) return e;
  set_status_bytes(*status, static_cast<std::size_t>(count * size));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Status_set_elements_x)

int PMPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  return PMPI_Status_set_elements_x(status, datatype, count);
}
MPISIM_WEAK_ALIAS(Status_set_elements)

int PMPI_Status_set_cancelled(MPI_Status* status, int flag) {
  ApiCall c("MPI_Status_set_cancelled");
  if (!status || status == MPI_STATUS_IGNORE)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null status argument");
  status->count_hi_and_cancelled = (status->count_hi_and_cancelled & ~1) | (flag ? 1 : 0);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Status_set_cancelled)

} // extern "C"
