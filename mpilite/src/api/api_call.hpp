// The frame of every MPI entry point: compute charging on entry and exit, the call's name for
// error messages and deadlock reports, and argument checks that raise MPI errors.
#pragma once

#include <fmt/format.h>

#include "errors.hpp"
#include "op_log.hpp"
#include "p2p.hpp"
#include "world.hpp"

namespace mpilite {

/// Whether a null buffer (MPI_BOTTOM) may go with `count` elements of `type`: no data, or a
/// derived type of absolute addresses (from MPI_Get_address) or of no data; MPICH checks likewise.
inline bool null_buffer_allowed(long count, const Datatype* type) {
  return count == 0 || (type && !type->predefined && (type->true_lb != 0 || type->size == 0));
}

inline constexpr int kTagUpperBound = 0x7fffffff;

/// Lives for the duration of one MPI call of the running rank.
class ApiCall {
public:
  explicit ApiCall(const char* name);
  ~ApiCall();
  ApiCall(const ApiCall&) = delete;
  ApiCall& operator=(const ApiCall&) = delete;

  World& w;
  Rank& r;
  const char* name;

  /// Records the peer of a call that may block, for deadlock reports.
  void peer(int rank, int tag, MPI_Comm comm) {
    if (r.call_depth == 1) r.call = {name, rank, tag, comm, true};
  }
  /// Records the communicator of a collective call, for deadlock reports.
  void collective(MPI_Comm comm) {
    if (r.call_depth == 1) r.call.comm = comm;
  }

  template <class... Args>
  int error(MPI_Comm comm, int code, fmt::format_string<Args...> f, Args&&... args) {
    if (window_ != MPI_WIN_NULL)
      return raise_object_error(w, r, &window_, window_errhandler_, name, code,
                                fmt::format(f, std::forward<Args>(args)...));
    return raise_error(w, r, comm, name, code, fmt::format(f, std::forward<Args>(args)...));
  }
  /// From here on the call's errors, its checks of counts, types, buffers and ranks included, go
  /// to the handler of window `handle` rather than to a communicator's: MPI raises the errors of
  /// a call with a window on the window.
  void raise_on_window(MPI_Win handle, MPI_Errhandler errhandler) {
    window_ = handle;
    window_errhandler_ = errhandler;
  }

  // Argument checks: each returns MPI_SUCCESS or the result of error(). Those every
  // point-to-point call makes test inline and raise out of line: as calls they cost more than
  // the tests (about 120 instructions of a ping-pong message's 4 300).
  int check_init() { return r.initialized && !r.finalized ? MPI_SUCCESS : check_init_closed(); }
  int check_comm(MPI_Comm h, Comm*& out);
  /// check_comm, and refuses an intercommunicator: for calls mpisim implements on
  /// intracommunicators only.
  int check_intracomm(MPI_Comm h, Comm*& out);
  int refuse_intercomm(const Comm& c);
  /// A point-to-point rank: of the remote group on an intercommunicator.
  int check_rank(const Comm& c, int rank, bool allow_any, const char* what) {
    if ((rank >= 0 && rank < c.peer_count()) || rank == MPI_PROC_NULL ||
        (allow_any && rank == MPI_ANY_SOURCE))
      return MPI_SUCCESS;
    return invalid_rank(c, rank, what);
  }
  int check_tag(const Comm& c, int tag, bool allow_any) {
    if ((tag >= 0 && tag <= kTagUpperBound) || (allow_any && tag == MPI_ANY_TAG))
      return MPI_SUCCESS;
    return invalid_tag(c, tag, allow_any);
  }
  int check_count(const Comm& c, long count) {
    return count >= 0 ? MPI_SUCCESS : invalid_count(c, count);
  }
  int check_type(const Comm& c, MPI_Datatype h, const Datatype*& out);
  /// A null buffer is an error unless `type` (if given) places its data at absolute addresses.
  int check_buffer(const Comm& c, const void* buf, long count, const Datatype* type = nullptr) {
    return buf || null_buffer_allowed(count, type) ? MPI_SUCCESS : null_buffer(c, count);
  }
  int check_root(const Comm& c, int root);
  int check_op(const Comm& c, MPI_Op h, const Datatype& type, const Op*& out);

private:
  /// check_init's answer before MPI_Init or after MPI_Finalize: an open session allows the call.
  int check_init_closed();
  [[gnu::cold]] int invalid_rank(const Comm& c, int rank, const char* what);
  [[gnu::cold]] int invalid_tag(const Comm& c, int tag, bool allow_any);
  [[gnu::cold]] int invalid_count(const Comm& c, long count);
  [[gnu::cold]] int null_buffer(const Comm& c, long count);

  SimTime started_ = 0;           ///< the clock when the call began, after the compute before it
  MPI_Win window_ = MPI_WIN_NULL; ///< raise_on_window's, if called
  MPI_Errhandler window_errhandler_ = MPI_ERRHANDLER_NULL;
};

/// Writes `s` to `out` unless the user passed MPI_STATUS_IGNORE.
inline void store_status(MPI_Status* out, const MPI_Status& s) {
  if (out && out != MPI_STATUS_IGNORE) *out = s;
}

/// The same for a call that completes one operation (MPI_Recv, MPI_Wait, ...): MPI_ERROR is left
/// as the program set it, as MPICH leaves it (MPI-4.0 3.2.5: only the calls that return several
/// statuses set it; the call's own result is the error).
inline void store_single_status(MPI_Status* out, const MPI_Status& s) {
  if (!out || out == MPI_STATUS_IGNORE) return;
  const int kept = out->MPI_ERROR;
  *out = s;
  out->MPI_ERROR = kept;
}

/// Fills a status for an operation with MPI_PROC_NULL.
inline MPI_Status null_status() {
  MPI_Status s{};
  s.MPI_SOURCE = MPI_PROC_NULL;
  s.MPI_TAG = MPI_ANY_TAG;
  s.MPI_ERROR = MPI_SUCCESS;
  return s;
}

} // namespace mpilite

/// Makes MPI_name a weak alias of PMPI_name (which must be defined in the same file).
#define MPISIM_WEAK_ALIAS(name)                                                                    \
  extern "C" __typeof__(PMPI_##name) MPI_##name __attribute__((weak, alias("mpisim_"               \
                                                                           "PMPI_" #name)));
