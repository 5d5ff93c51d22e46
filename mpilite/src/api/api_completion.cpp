// MPI entry points: completion of requests (wait, test and their any/some/all forms), freeing,
// cancelling and querying requests.
#include <span>
#include <vector>

#include "api_p2p.hpp"
#include "cancel.hpp"
#include "completion.hpp"
#include "generalized_request.hpp"

using namespace mpilite;

namespace {

/// `op`, a completed operation (or null), once its status is final: a generalized request's
/// comes from its query callback, run by the call that completes it.
Request* with_final_status(Request* op) {
  if (op && generalized(*op)) query_generalized(*op);
  return op;
}

/// The error a completed operation (or null) reports in its status.
int operation_error(const Request* op) {
  return op && op->kind != RequestKind::Send ? op->status.MPI_ERROR : MPI_SUCCESS;
}

/// Which statuses a call that completes several operations writes MPI_ERROR into when none
/// failed. MPI-4.0 3.7.5 sets the field only with MPI_ERR_IN_STATUS; MPICH's MPI_Waitall also
/// sets it (to MPI_SUCCESS) for each operation that was not null, and programs compared with
/// MPICH see that.
enum class ErrorOnSuccess { Kept, SetForOperations };

/// Finishes the completed operations `done` (indices into the set), stores their statuses in
/// `statuses` (position k for done[k]; or by index when `by_index`), and raises
/// MPI_ERR_IN_STATUS if one failed, with every status's MPI_ERROR set; if none failed, MPI_ERROR
/// is set as `on_success` says and otherwise left as the program set it.
int finish_all(ApiCall& c, HandleSet& set, const std::vector<std::size_t>& done,
               MPI_Request* handles, MPI_Status* statuses, bool by_index,
               ErrorOnSuccess on_success = ErrorOnSuccess::Kept) {
  int failed = 0, first_error = MPI_SUCCESS;
  std::string first_failure;
  MPI_Comm first_comm = MPI_COMM_WORLD;
  for (const std::size_t i : done) {
    const Request* op = with_final_status(set.ops[i]);
    const int error = operation_error(op);
    if (error == MPI_SUCCESS || failed++ > 0) continue;
    first_error = error;
    first_failure = failure_text(*op);
    if (op->comm) first_comm = op->comm->handle;
  }
  const bool store = statuses != MPI_STATUSES_IGNORE && statuses;
  for (std::size_t k = 0; k < done.size(); ++k) {
    const bool sets_error = failed > 0 || (on_success == ErrorOnSuccess::SetForOperations &&
                                           set.ops[done[k]] != nullptr);
    const MPI_Status s = finish_request(c, set, done[k], handles);
    if (!store) continue;
    MPI_Status& out = statuses[by_index ? done[k] : k];
    if (sets_error)
      out = s;
    else
      store_single_status(&out, s);
  }
  if (failed == 0) return MPI_SUCCESS;
  // The errors are in the statuses even when one operation completed (MPI-4.0 3.7.5), and go
  // to the handler of the first failed operation's communicator, as MPI_Wait's do.
  return c.error(first_comm, MPI_ERR_IN_STATUS, "{} of {} requests failed (first: {}: {})", failed,
                 done.size(), error_class_name(first_error), first_failure);
}

std::vector<std::size_t> all_indices(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

/// Finishes the single completed operation `i` of a Wait/Test/Waitany/Testany call.
int finish_one(ApiCall& c, HandleSet& set, std::size_t i, MPI_Request* handles,
               MPI_Status* status) {
  const Request* op = with_final_status(set.ops[i]);
  const int e = op ? receive_error(c, *op) : MPI_SUCCESS;
  store_single_status(status, finish_request(c, set, i, handles));
  return e;
}

bool all_null(const HandleSet& set) {
  for (const Request* q : set.ops)
    if (q) return false;
  return true;
}

/// Whether `q` took whichever message came first (a receive of MPI_PROC_NULL takes none; a
/// generalized request, which the program completes, none either).
bool wildcard_receive(const Request* q) {
  return q && (q->kind == RequestKind::Recv || q->receives) && q->probe == Request::Probe::None &&
         q->status.MPI_SOURCE != MPI_PROC_NULL && wildcard(q->source, q->tag) && !generalized(*q);
}

/// Records what a wait or test call found (MPISIM_RECORD) before finishing frees its requests:
/// `flag`, and the requests `done` of `set` that completed.
void record_outcome(ApiCall& c, const HandleSet& set, std::span<const std::size_t> done, bool flag,
                    Recorded what) {
  if (!c.w.op_log) return;
  const auto o = completion_outcome(what, flag, done, [&](std::size_t k) {
    const Request* q = set.ops[done[k]];
    return wildcard_receive(q) ? &q->status : nullptr;
  });
  if (o) c.w.op_log->outcome(c, *o);
}

/// MPI makes freeing or cancelling an active persistent collective or partitioned request
/// erroneous: what it started runs on its own and must complete first.
int check_not_active(ApiCall& c, const Request& q) {
  if (!q.persistent || !q.started || q.persistent->point_to_point()) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                 "persistent request {:#x} is active (complete it with MPI_Wait or MPI_Test "
                 "first: freeing or cancelling an active persistent collective or partitioned "
                 "request is erroneous)",
                 static_cast<unsigned>(q.handle));
}

/// One request handle (MPI_Request_free, MPI_Cancel, MPI_Request_get_status).
int lookup_one(ApiCall& c, MPI_Request h, Request*& out) {
  out = c.w.request(h);
  if (out && out->owner == &c.r) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "invalid request {:#x}",
                 static_cast<unsigned>(h));
}

int check_out(ApiCall& c, const void* p, const char* what) {
  if (p) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null {} pointer", what);
}

/// MPI_Waitsome and MPI_Testsome.
int some(const char* name, bool wait, int incount, MPI_Request* requests, int* outcount,
         int* indices, MPI_Status* statuses) {
  ApiCall c(name);
  HandleSet set;
  if (int e = check_out(c, outcount, "outcount")) return e;
  if (int e = lookup_requests(c, incount, requests, set)) return e;
  MPISIM_RECORD_OP(c, wait ? "waitsome" : "testsome", RequestsArg{incount, requests});
  if (all_null(set)) {
    record_outcome(c, set, {}, true, Recorded::Which);
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  if (int e = check_out(c, indices, "array_of_indices")) return e;
  const std::vector<std::size_t> done = wait ? wait_some(c.w, c.r, set.ops.data(), set.ops.size())
                                             : test_some(c.w, c.r, set.ops.data(), set.ops.size());
  record_outcome(c, set, done, true, Recorded::Which);
  *outcount = static_cast<int>(done.size());
  for (std::size_t k = 0; k < done.size(); ++k)
    indices[k] = static_cast<int>(done[k]);
  return finish_all(c, set, done, requests, statuses, false);
}

} // namespace

extern "C" {

int PMPI_Wait(MPI_Request* request, MPI_Status* status) {
  ApiCall c("MPI_Wait");
  HandleSet set;
  if (int e = check_out(c, request, "request")) return e;
  if (int e = lookup_requests(c, 1, request, set)) return e;
  MPISIM_RECORD_OP(c, "wait", RequestArg{*request});
  wait_all(c.w, c.r, set.ops.data(), 1);
  const std::size_t first = 0;
  record_outcome(c, set, {&first, 1}, true, Recorded::Matches);
  return finish_one(c, set, 0, request, status);
}
MPISIM_WEAK_ALIAS(Wait)

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  ApiCall c("MPI_Waitall");
  HandleSet set;
  if (int e = lookup_requests(c, count, array_of_requests, set)) return e;
  MPISIM_RECORD_OP(c, "waitall", RequestsArg{count, array_of_requests});
  wait_all(c.w, c.r, set.ops.data(), set.ops.size());
  const std::vector<std::size_t> all = all_indices(set.ops.size());
  record_outcome(c, set, all, true, Recorded::Matches);
  return finish_all(c, set, all, array_of_requests, array_of_statuses, true,
                    ErrorOnSuccess::SetForOperations);
}
MPISIM_WEAK_ALIAS(Waitall)

int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  ApiCall c("MPI_Test");
  HandleSet set;
  if (int e = check_out(c, request, "request")) return e;
  if (int e = check_out(c, flag, "flag")) return e;
  if (int e = lookup_requests(c, 1, request, set)) return e;
  MPISIM_RECORD_OP(c, "test", RequestArg{*request});
  *flag = test_all(c.w, c.r, set.ops.data(), 1);
  const std::size_t first = 0;
  record_outcome(c, set, {&first, *flag ? 1u : 0u}, *flag, Recorded::Flag);
  if (!*flag) return MPI_SUCCESS;
  return finish_one(c, set, 0, request, status);
}
MPISIM_WEAK_ALIAS(Test)

int PMPI_Testall(int count, MPI_Request array_of_requests[], int* flag,
                 MPI_Status array_of_statuses[]) {
  ApiCall c("MPI_Testall");
  HandleSet set;
  if (int e = check_out(c, flag, "flag")) return e;
  if (int e = lookup_requests(c, count, array_of_requests, set)) return e;
  MPISIM_RECORD_OP(c, "testall", RequestsArg{count, array_of_requests});
  *flag = test_all(c.w, c.r, set.ops.data(), set.ops.size());
  if (!*flag) {
    record_outcome(c, set, {}, false, Recorded::Flag);
    return MPI_SUCCESS;
  }
  const std::vector<std::size_t> all = all_indices(set.ops.size());
  record_outcome(c, set, all, true, Recorded::Flag);
  return finish_all(c, set, all, array_of_requests, array_of_statuses, true);
}
MPISIM_WEAK_ALIAS(Testall)

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int* index, MPI_Status* status) {
  ApiCall c("MPI_Waitany");
  HandleSet set;
  if (int e = check_out(c, index, "index")) return e;
  if (int e = lookup_requests(c, count, array_of_requests, set)) return e;
  MPISIM_RECORD_OP(c, "waitany", RequestsArg{count, array_of_requests});
  const long i = wait_any(c.w, c.r, set.ops.data(), set.ops.size());
  const auto done = static_cast<std::size_t>(i);
  record_outcome(c, set, {&done, i < 0 ? 0u : 1u}, true, Recorded::Which);
  if (i < 0) {
    *index = MPI_UNDEFINED;
    store_single_status(status, empty_status());
    return MPI_SUCCESS;
  }
  *index = static_cast<int>(i);
  return finish_one(c, set, static_cast<std::size_t>(i), array_of_requests, status);
}
MPISIM_WEAK_ALIAS(Waitany)

int PMPI_Testany(int count, MPI_Request array_of_requests[], int* index, int* flag,
                 MPI_Status* status) {
  ApiCall c("MPI_Testany");
  HandleSet set;
  if (int e = check_out(c, index, "index")) return e;
  if (int e = check_out(c, flag, "flag")) return e;
  if (int e = lookup_requests(c, count, array_of_requests, set)) return e;
  MPISIM_RECORD_OP(c, "testany", RequestsArg{count, array_of_requests});
  if (all_null(set)) {
    record_outcome(c, set, {}, true, Recorded::Which);
    *flag = 1;
    *index = MPI_UNDEFINED;
    store_single_status(status, empty_status());
    return MPI_SUCCESS;
  }
  const long i = test_any(c.w, c.r, set.ops.data(), set.ops.size());
  *flag = i >= 0;
  const auto done = static_cast<std::size_t>(i);
  record_outcome(c, set, {&done, i < 0 ? 0u : 1u}, *flag, Recorded::Which);
  *index = MPI_UNDEFINED;
  if (i < 0) return MPI_SUCCESS;
  *index = static_cast<int>(i);
  return finish_one(c, set, static_cast<std::size_t>(i), array_of_requests, status);
}
MPISIM_WEAK_ALIAS(Testany)

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int* outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[]) {
  return some("MPI_Waitsome", true, incount, array_of_requests, outcount, array_of_indices,
              array_of_statuses);
}
MPISIM_WEAK_ALIAS(Waitsome)

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int* outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[]) {
  return some("MPI_Testsome", false, incount, array_of_requests, outcount, array_of_indices,
              array_of_statuses);
}
MPISIM_WEAK_ALIAS(Testsome)

int PMPI_Request_free(MPI_Request* request) {
  ApiCall c("MPI_Request_free");
  Request* q;
  if (int e = check_out(c, request, "request")) return e;
  if (int e = lookup_one(c, *request, q)) return e;
  if (int e = check_not_active(c, *q)) return e;
  MPISIM_RECORD_OP(c, "request_free", RequestArg{*request});
  if (q->persistent) {
    if (q->started) release_when_complete(c.w, *q->started);
    c.w.free_request(q);
  } else {
    release_when_complete(c.w, *q);
  }
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Request_free)

int PMPI_Cancel(MPI_Request* request) {
  ApiCall c("MPI_Cancel");
  Request* q;
  if (int e = check_out(c, request, "request")) return e;
  if (int e = lookup_one(c, *request, q)) return e;
  if (int e = check_not_active(c, *q)) return e;
  Request* op = q->persistent ? q->started : q;
  if (!op)
    return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                   "persistent request {:#x} is not active (start it with MPI_Start first)",
                   static_cast<unsigned>(*request));
  if (const GeneralizedCallbacks* g = generalized(*op))
    return g->cancel ? g->cancel(g->extra_state, op->complete ? 1 : 0) : MPI_SUCCESS;
  MPISIM_RECORD_OP(c, "cancel", RequestArg{*request});
  const bool supported = cancel(c.w, c.r, *op);
  // Whether it was cancelled depends on timing (whether the peer had matched it): the outcome.
  MPISIM_RECORD_OUTCOME(c, Outcome{(op->status.count_hi_and_cancelled & 1) != 0, {}, {}});
  if (!supported)
    c.w.stop(RunEnd::FatalError, 1,
             fmt::format("rank {}: MPI_Cancel of a pending send to rank {}, which runs in another "
                         "host process, is not supported by mpisim: run with fewer host processes "
                         "(MPISIM_HOSTS) or place the two ranks in one (MPISIM_MAP)",
                         c.r.id, op->dest));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Cancel)

int PMPI_Test_cancelled(const MPI_Status* status, int* flag) {
  ApiCall c("MPI_Test_cancelled");
  if (!status || status == MPI_STATUS_IGNORE || !flag)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null status or flag pointer");
  *flag = status->count_hi_and_cancelled & 1;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Test_cancelled)

int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  ApiCall c("MPI_Request_get_status");
  if (int e = check_out(c, flag, "flag")) return e;
  Request* op = nullptr;
  if (request != MPI_REQUEST_NULL) {
    Request* q;
    if (int e = lookup_one(c, request, q)) return e;
    op = q->persistent ? q->started : q;
  }
  MPISIM_RECORD_OP(c, "request_get_status", RequestArg{request});
  if (!op) {
    *flag = 1;
    store_status(status, empty_status());
    MPISIM_RECORD_OUTCOME(c, Outcome{});
    return MPI_SUCCESS;
  }
  *flag = completed_by_clock(c.w, c.r, *op);
  MPISIM_RECORD_OUTCOME(c, Outcome{*flag != 0, {}, {}});
  if (!*flag) return MPI_SUCCESS;
  store_single_status(status, with_final_status(op)->status);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Request_get_status)

} // extern "C"
