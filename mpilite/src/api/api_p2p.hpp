// Argument checking and starting of point-to-point operations, shared by the MPI entry points
// of sends and receives, persistent requests, probes and request completion.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "api_call.hpp"

namespace mpilite {

/// The checked arguments of a send or receive. `peer` is a rank of `comm`, MPI_PROC_NULL or
/// (receives) MPI_ANY_SOURCE.
struct P2pArgs {
  void* buf = nullptr;
  std::size_t count = 0;
  const Datatype* type = nullptr;
  const Comm* comm = nullptr;
  int peer = MPI_PROC_NULL;
  int tag = 0;
};

/// What MPI_Start starts again and again: the operation of a persistent request
/// (point-to-point, collective or partitioned), which stores how to start itself.
struct PersistentOp {
  virtual ~PersistentOp() = default;
  /// Starts the operation once more; `self` is the persistent request, whose `started` gets
  /// the operation to complete.
  virtual int start(ApiCall& c, Request& self) = 0;
  /// Whether an active one may be freed or cancelled: point-to-point only (MPI makes it
  /// erroneous for persistent collectives and partitioned requests).
  virtual bool point_to_point() const { return false; }
};

/// MPI_Get_count's answer without the int: the whole elements of `datatype` in `status`, or
/// MPI_UNDEFINED; an MPI error raised on `c` when an argument is bad.
int count_in_status(ApiCall& c, const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count);

/// Makes a persistent request of kind `kind` for `op` (checked) and stores its handle.
int make_persistent(ApiCall& c, std::shared_ptr<PersistentOp> op, RequestKind kind, MPI_Comm comm,
                    MPI_Request* request);

/// Checks the arguments of a send (MPI_Send and friends) and of a receive.
int check_send(ApiCall& c, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, P2pArgs& out);
int check_receive(ApiCall& c, void* buf, int count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, P2pArgs& out);

/// Checks the arguments of MPI_Sendrecv and its variants: a send and a receive on one comm.
int check_send_receive(ApiCall& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       int dest, int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                       int source, int recvtag, MPI_Comm comm, P2pArgs& send, P2pArgs& recv);

/// Makes `send` send a packed copy of its data, held in `packed` (which must outlive the send):
/// MPI_Sendrecv_replace's receive overwrites the buffer.
void send_packed(P2pArgs& send, std::vector<std::byte>& packed);

/// The name a record gives send mode `mode` ("standard", "buffered", ...).
const char* mode_name(SendMode mode);

/// Starts a checked send; a buffered one needs room in the attached buffer (MPI_ERR_BUFFER).
int begin_send(ApiCall& c, SendMode mode, const P2pArgs& a, Request*& out);
/// Posts a checked receive.
Request* begin_receive(ApiCall& c, const P2pArgs& a);

/// Raises MPI_ERR_TRUNCATE (or what the status holds) for a completed receive.
int receive_error(ApiCall& c, const Request& q);
/// What went wrong with a completed operation whose status holds an error.
std::string failure_text(const Request& q);

/// The status of an empty or inactive request: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0.
MPI_Status empty_status();

/// The requests named by the handles of a wait, test or cancel call. `named` is what each
/// handle names (null for MPI_REQUEST_NULL); `ops` the operation to complete: the request
/// itself or what a persistent request started (null when inactive).
struct HandleSet {
  // Inline for the common few handles: MPI_Wait runs for nearly every message.
  boost::container::small_vector<Request*, 4> named;
  boost::container::small_vector<Request*, 4> ops;
};
int lookup_requests(ApiCall& c, int count, const MPI_Request* handles, HandleSet& out);

/// After ops[i] completed: its status (a send's error field is MPI_SUCCESS), and the
/// operation is freed; a persistent request becomes inactive, any other handle MPI_REQUEST_NULL.
MPI_Status finish_request(ApiCall& c, HandleSet& set, std::size_t i, MPI_Request* handles);

/// Frees `q` now if it is complete, else when it completes (MPI_Request_free).
void release_when_complete(World& w, Request& q);

} // namespace mpilite
