// MPI requests: pending sends and receives of one rank.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "critical_path.hpp"
#include "message.hpp"
#include "mpi.h"
#include "sim_time.hpp"

namespace mpilite {

struct Rank;
struct Comm;
struct Datatype;
struct PersistentOp;

/// Collective: a non-blocking collective (or the schedule a blocking one waits for); it
/// completes when its schedule (collective_schedule.hpp) has run its last step. Freeing it
/// frees the schedule, so it must not be freed before it completes (MPI makes MPI_Request_free
/// and MPI_Cancel of such requests erroneous).
enum class RequestKind : std::uint8_t { Send, Recv, Collective };

// The fields are ordered to leave no padding: a million blocked ranks hold a request each.
struct Request {
  RequestKind kind = RequestKind::Send;
  bool complete = false;
  bool active = true; ///< false once waited for (the handle is freed)
  /// A compound request with a receive part (MPI_Isendrecv): `source` and `tag` are that
  /// receive's, and its status.
  bool receives = false;
  MPI_Request handle = MPI_REQUEST_NULL;
  Rank* owner = nullptr;
  std::uint64_t id = 0;          ///< unique per host process (replies name it)
  SimTime post_time = 0;         ///< owner's clock when posted
  SimTime ready_time = 0;        ///< when the operation completes in simulated time
  SimTime recv_overhead = 0;     ///< charged when a completed receive is waited for
  SimTime send_overhead = 0;     ///< sends: the sender's CPU time before the message leaves
  MPI_Status status{};           ///< receives: source (comm rank), tag, byte count, error
  int dest = MPI_PROC_NULL;      ///< sends: world rank (MPI_Cancel looks for the message there)
  std::size_t message_bytes = 0; ///< receives: size of the matched message (for truncation);
                                 ///< space of a buffered send: the bytes it holds
  // Receives.
  void* buf = nullptr;
  std::size_t count = 0;
  const Datatype* type = nullptr;
  const Comm* comm = nullptr;
  int context = 0;
  int source = MPI_ANY_SOURCE; ///< world rank, or MPI_ANY_SOURCE
  int tag = MPI_ANY_TAG;
  /// Partitioned receives: the partitions expected, and those of the send that matched (MPI
  /// requires them equal; a partitioned message only matches a partitioned receive).
  int partitions = 0;
  int sent_partitions = 0;
  bool undecided = false; ///< a candidate exists but matching it needs a time bound
  bool matchable = false; ///< posted receives: whether matching must look at it
  /// Probes (MPI_Probe, MPI_Mprobe) are matched like receives but Peek leaves the message where
  /// it is and Take moves it into `message` (until MPI_Mrecv receives it).
  enum class Probe : std::uint8_t { None, Peek, Take } probe = Probe::None;
  /// False for a step of a collective's schedule: its owner waits for the collective, which the
  /// schedule completes (waking it then), so the step's completion leaves the owner blocked
  /// (World::quiet_steps when no rank runs) instead of waking it to find the collective still
  /// running (an allreduce over 20 000 ranks woke its owners 445 504 times for nothing).
  bool wakes_owner = true;
  /// Posted receives: links of the rank's post-order list and of its (context, source) list,
  /// and the post order (match_queues.hpp).
  Request* posted_prev = nullptr;
  Request* posted_next = nullptr;
  Request* source_prev = nullptr;
  Request* source_next = nullptr;
  std::uint64_t post_seq = 0;
  /// Posted receives left undecided: when taking its candidate could take effect
  /// (max(post_time, candidate's ts)), counted in its owner's undecided_key; kTimeInfinity
  /// otherwise (matching.cpp keeps the two in step).
  SimTime undecided_key = kTimeInfinity;
  std::unique_ptr<Message> message;
  /// Persistent requests (MPI_Send_init, MPI_Bcast_init, MPI_Psend_init, ...): what MPI_Start
  /// starts, and the operation the last MPI_Start started until a wait or test completes it
  /// (null: inactive). Such a request never takes part in matching itself.
  std::shared_ptr<PersistentOp> persistent;
  Request* started = nullptr;
  /// Called when the request completes (wherever that happens: for operations that progress on
  /// their own, such as the steps of a non-blocking collective). `context` is the callback's.
  void (*on_complete)(Request& self, void* context) = nullptr;
  void* completion_context = nullptr;
  /// Collectives: of the time up to ready_time, how much the schedule spent in send and receive
  /// overheads (charged as communication when waited for, the rest as waiting).
  SimTime busy = 0;
  /// The critical path that set ready_time (MPISIM_CRITICAL_PATH; null: none known, or off).
  std::unique_ptr<CritPath> path;
  /// What the request keeps alive until it is freed (a collective's schedule).
  std::shared_ptr<void> owned;
};

/// Marks `q` complete at simulated time `ready` and runs its completion callback.
inline void mark_complete(Request& q, SimTime ready) {
  q.ready_time = ready;
  q.complete = true;
  if (q.on_complete) q.on_complete(q, q.completion_context);
}

/// Byte count stored in / read from a status (MPICH's split 63-bit layout).
inline void set_status_bytes(MPI_Status& s, std::size_t bytes) {
  s.count_lo = static_cast<int>(bytes & 0xffffffffu);
  s.count_hi_and_cancelled = static_cast<int>((bytes >> 32) << 1) | (s.count_hi_and_cancelled & 1);
}
inline std::size_t status_bytes(const MPI_Status& s) {
  return static_cast<std::size_t>(static_cast<unsigned>(s.count_lo)) |
         (static_cast<std::size_t>(static_cast<unsigned>(s.count_hi_and_cancelled) >> 1) << 32);
}

} // namespace mpilite
