// MPI entry points: point-to-point communication and request completion.
#include <vector>

#include "api_call.hpp"

using namespace mpilite;

namespace {

MPI_Status empty_status() {
  MPI_Status s{};
  s.MPI_SOURCE = MPI_ANY_SOURCE;
  s.MPI_TAG = MPI_ANY_TAG;
  s.MPI_ERROR = MPI_SUCCESS;
  return s;
}

/// Raises MPI_ERR_TRUNCATE (or what the status holds) for a completed receive.
int receive_error(ApiCall& c, MPI_Comm comm, const Request& q) {
  if (q.kind != RequestKind::Recv || q.status.MPI_ERROR == MPI_SUCCESS) return MPI_SUCCESS;
  return c.error(comm, q.status.MPI_ERROR,
                 "message of {} bytes from rank {} (tag {}) does not fit the receive buffer of {} "
                 "bytes",
                 q.message_bytes, q.status.MPI_SOURCE, q.status.MPI_TAG, q.count * q.type->size);
}

int start_send_call(ApiCall& c, SendMode mode, const void* buf, int count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, Request*& out) {
  Comm* cm;
  const Datatype* type;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = c.check_count(*cm, count)) return e;
  if (int e = c.check_type(*cm, datatype, type)) return e;
  if (int e = c.check_buffer(*cm, buf, count)) return e;
  if (int e = c.check_rank(*cm, dest, false, "destination")) return e;
  if (int e = c.check_tag(*cm, tag, false)) return e;
  c.peer(dest, tag, comm);
  if (dest == MPI_PROC_NULL) {
    out = completed_request(c.w, c.r, RequestKind::Send);
    return MPI_SUCCESS;
  }
  const std::size_t bytes = static_cast<std::size_t>(count) * type->size;
  if (mode == SendMode::Buffered &&
      c.r.bsend_used + bytes + MPI_BSEND_OVERHEAD > c.r.bsend_capacity)
    return c.error(comm, MPI_ERR_BUFFER,
                   "buffered send of {} bytes needs {} bytes of attached buffer, {} of {} free "
                   "(attach a larger buffer with MPI_Buffer_attach)",
                   bytes, bytes + MPI_BSEND_OVERHEAD, c.r.bsend_capacity - c.r.bsend_used,
                   c.r.bsend_capacity);
  out = start_send(c.w, c.r, mode, buf, static_cast<std::size_t>(count), *type,
                   cm->world_of(dest, c.r.id), tag, cm->context);
  return MPI_SUCCESS;
}

int blocking_send(const char* name, SendMode mode, const void* buf, int count,
                  MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  ApiCall c(name);
  Request* q = nullptr;
  if (int e = start_send_call(c, mode, buf, count, datatype, dest, tag, comm, q)) return e;
  wait_all(c.w, c.r, &q, 1);
  c.w.free_request(q);
  return MPI_SUCCESS;
}

int nonblocking_send(const char* name, SendMode mode, const void* buf, int count,
                     MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  ApiCall c(name);
  Request* q = nullptr;
  if (int e = start_send_call(c, mode, buf, count, datatype, dest, tag, comm, q)) return e;
  *request = q->handle;
  return MPI_SUCCESS;
}

int start_receive_call(ApiCall& c, void* buf, int count, MPI_Datatype datatype, int source, int tag,
                       MPI_Comm comm, Request*& out) {
  Comm* cm;
  const Datatype* type;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = c.check_count(*cm, count)) return e;
  if (int e = c.check_type(*cm, datatype, type)) return e;
  if (int e = c.check_buffer(*cm, buf, count)) return e;
  if (int e = c.check_rank(*cm, source, true, "source")) return e;
  if (int e = c.check_tag(*cm, tag, true)) return e;
  c.peer(source, tag, comm);
  if (source == MPI_PROC_NULL) {
    out = completed_request(c.w, c.r, RequestKind::Recv);
    return MPI_SUCCESS;
  }
  const int world_source = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : cm->world_of(source, c.r.id);
  out = start_receive(c.w, c.r, buf, static_cast<std::size_t>(count), *type, world_source, tag,
                      cm->context, *cm);
  return MPI_SUCCESS;
}

/// Looks up the requests of a wait/test call; null handles become null pointers.
int lookup_requests(ApiCall& c, int count, const MPI_Request* handles, std::vector<Request*>& out) {
  out.assign(static_cast<std::size_t>(count), nullptr);
  for (int i = 0; i < count; ++i) {
    if (handles[i] == MPI_REQUEST_NULL) continue;
    out[static_cast<std::size_t>(i)] = c.w.request(handles[i]);
    if (!out[static_cast<std::size_t>(i)])
      return c.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "invalid request {:#x} at index {}",
                     static_cast<unsigned>(handles[i]), i);
  }
  return MPI_SUCCESS;
}

/// Stores the statuses of completed requests, frees them and nulls their handles. Returns
/// MPI_ERR_IN_STATUS when one of several failed, as MPI requires.
int finish_requests(ApiCall& c, std::vector<Request*>& reqs, MPI_Request* handles,
                    MPI_Status* statuses) {
  int failed = 0, first_error = MPI_SUCCESS;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    MPI_Status s = reqs[i] ? reqs[i]->status : empty_status();
    if (reqs[i] && reqs[i]->kind == RequestKind::Send) s.MPI_ERROR = MPI_SUCCESS;
    if (s.MPI_ERROR != MPI_SUCCESS && failed++ == 0) first_error = s.MPI_ERROR;
    if (statuses != MPI_STATUSES_IGNORE) statuses[i] = s;
    if (reqs[i]) {
      c.w.free_request(reqs[i]);
      handles[i] = MPI_REQUEST_NULL;
    }
  }
  if (failed == 0) return MPI_SUCCESS;
  if (reqs.size() == 1)
    return c.error(MPI_COMM_WORLD, first_error, "{}", error_class_text(first_error));
  return c.error(MPI_COMM_WORLD, MPI_ERR_IN_STATUS, "{} of {} requests failed (first: {})", failed,
                 reqs.size(), error_class_name(first_error));
}

} // namespace

extern "C" {

int PMPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Send", SendMode::Standard, buf, count, datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Send)

int PMPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Bsend", SendMode::Buffered, buf, count, datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Bsend)

int PMPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Ssend", SendMode::Synchronous, buf, count, datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Ssend)

int PMPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return blocking_send("MPI_Rsend", SendMode::Ready, buf, count, datatype, dest, tag, comm);
}
MPISIM_WEAK_ALIAS(Rsend)

int PMPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking_send("MPI_Isend", SendMode::Standard, buf, count, datatype, dest, tag, comm,
                          request);
}
MPISIM_WEAK_ALIAS(Isend)

int PMPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Ibsend", SendMode::Buffered, buf, count, datatype, dest, tag, comm,
                          request);
}
MPISIM_WEAK_ALIAS(Ibsend)

int PMPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Issend", SendMode::Synchronous, buf, count, datatype, dest, tag,
                          comm, request);
}
MPISIM_WEAK_ALIAS(Issend)

int PMPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_send("MPI_Irsend", SendMode::Ready, buf, count, datatype, dest, tag, comm,
                          request);
}
MPISIM_WEAK_ALIAS(Irsend)

int PMPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status* status) {
  ApiCall c("MPI_Recv");
  Request* q = nullptr;
  if (int e = start_receive_call(c, buf, count, datatype, source, tag, comm, q)) return e;
  wait_all(c.w, c.r, &q, 1);
  store_status(status, q->status);
  const int e = receive_error(c, comm, *q);
  c.w.free_request(q);
  return e;
}
MPISIM_WEAK_ALIAS(Recv)

int PMPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request* request) {
  ApiCall c("MPI_Irecv");
  Request* q = nullptr;
  if (int e = start_receive_call(c, buf, count, datatype, source, tag, comm, q)) return e;
  *request = q->handle;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Irecv)

int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status* status) {
  ApiCall c("MPI_Sendrecv");
  Request* reqs[2] = {nullptr, nullptr};
  if (int e = start_send_call(c, SendMode::Standard, sendbuf, sendcount, sendtype, dest, sendtag,
                              comm, reqs[0]))
    return e;
  if (int e = start_receive_call(c, recvbuf, recvcount, recvtype, source, recvtag, comm, reqs[1]))
    return e;
  c.peer(source, recvtag, comm);
  wait_all(c.w, c.r, reqs, 2);
  store_status(status, reqs[1]->status);
  const int e = receive_error(c, comm, *reqs[1]);
  c.w.free_request(reqs[0]);
  c.w.free_request(reqs[1]);
  return e;
}
MPISIM_WEAK_ALIAS(Sendrecv)

int PMPI_Wait(MPI_Request* request, MPI_Status* status) {
  return PMPI_Waitall(1, request, status == MPI_STATUS_IGNORE ? MPI_STATUSES_IGNORE : status);
}
MPISIM_WEAK_ALIAS(Wait)

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  ApiCall c(count == 1 ? "MPI_Wait" : "MPI_Waitall");
  std::vector<Request*> reqs;
  if (int e = lookup_requests(c, count, array_of_requests, reqs)) return e;
  wait_all(c.w, c.r, reqs.data(), reqs.size());
  return finish_requests(c, reqs, array_of_requests, array_of_statuses);
}
MPISIM_WEAK_ALIAS(Waitall)

int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return PMPI_Testall(1, request, flag, status == MPI_STATUS_IGNORE ? MPI_STATUSES_IGNORE : status);
}
MPISIM_WEAK_ALIAS(Test)

int PMPI_Testall(int count, MPI_Request array_of_requests[], int* flag,
                 MPI_Status array_of_statuses[]) {
  ApiCall c(count == 1 ? "MPI_Test" : "MPI_Testall");
  std::vector<Request*> reqs;
  if (int e = lookup_requests(c, count, array_of_requests, reqs)) return e;
  *flag = test_all(c.w, c.r, reqs.data(), reqs.size());
  if (!*flag) return MPI_SUCCESS;
  return finish_requests(c, reqs, array_of_requests, array_of_statuses);
}
MPISIM_WEAK_ALIAS(Testall)

int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  const Datatype* t = World::get().datatype(datatype);
  if (!t) return MPI_ERR_TYPE;
  const std::size_t bytes = status_bytes(*status);
  if (t->size == 0)
    *count = 0;
  else
    *count = bytes % t->size ? MPI_UNDEFINED : static_cast<int>(bytes / t->size);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Get_count)

int PMPI_Buffer_attach(void* buffer, int size) {
  ApiCall c("MPI_Buffer_attach");
  if (c.r.bsend_buffer)
    return c.error(MPI_COMM_WORLD, MPI_ERR_BUFFER,
                   "a buffer is already attached (detach it first)");
  if (size < 0) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative buffer size {}", size);
  c.r.bsend_buffer = buffer;
  c.r.bsend_capacity = static_cast<std::size_t>(size);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Buffer_attach)

int PMPI_Buffer_detach(void* buffer_addr, int* size) {
  ApiCall c("MPI_Buffer_detach");
  *static_cast<void**>(buffer_addr) = c.r.bsend_buffer;
  *size = static_cast<int>(c.r.bsend_capacity);
  c.r.bsend_buffer = nullptr;
  c.r.bsend_capacity = 0;
  c.r.bsend_used = 0;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Buffer_detach)

} // extern "C"
