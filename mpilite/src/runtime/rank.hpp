// One LP: a target rank's fiber, clock, matching queues and statistics.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/container/flat_map.hpp>

#include "comm_local.hpp"
#include "critical_path.hpp"
#include "match_queues.hpp"
#include "message.hpp"
#include "mpi.h"
#include "privatization.hpp"
#include "request.hpp"
#include "scheduler.hpp"
#include "sim_time.hpp"

namespace mpilite {

/// Where a rank's simulated time went; clock == compute + comm + wait.
struct RankStats {
  SimTime compute = 0; ///< charged compute (measured CPU time and MPISIM_Compute)
  SimTime comm = 0;    ///< send and receive overheads
  SimTime wait = 0;    ///< waiting for messages, acknowledgements and peers
  std::uint64_t msgs_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t msgs_received = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t mpi_calls = 0;
  std::uint64_t parallel_regions = 0; ///< OpenMP parallel regions run
  int widest_team = 0;                ///< threads of the largest team among them
  /// Reads of the simulated clock (MPI_Wtime, and libc's clocks through MPISIM_Clock_ps),
  /// saturating: a replay at other times is exact only if the program did not act on them.
  std::uint32_t clock_reads = 0;
};

/// The MPI call a rank is in, for deadlock reports.
struct CallInfo {
  const char* name = nullptr;
  int peer = MPI_PROC_NULL; ///< dest or source (comm rank), if the call has one
  int tag = MPI_ANY_TAG;
  MPI_Comm comm = MPI_COMM_NULL;
  bool has_peer = false;
};

/// A handler a rank registered with atexit() (`plain`), or with glibc's on_exit()
/// (`with_status`, called with the exit status and `arg`).
struct ExitHandler {
  void (*plain)() = nullptr;
  void (*with_status)(int, void*) = nullptr;
  void* arg = nullptr;
};

/// The parts of a rank that few programs use (Rank::rare()).
struct RankRare {
  std::size_t bsend_capacity = 0; ///< attached buffer (MPI_Buffer_attach)
  void* bsend_buffer = nullptr;
  /// Buffered sends whose data still occupies the attached buffer: each completes (bsend.hpp)
  /// when its message has been transmitted.
  std::vector<Request*> bsend_pending;
  /// The handler of MPI_FILE_NULL: errors of MPI_File_open and of files opened later.
  MPI_Errhandler file_errhandler = MPI_ERRORS_RETURN;
  /// The error handler of each session this rank opened (MPI_Session_init), by handle
  /// MPI_SESSION_NULL + 1 + index; MPI_ERRHANDLER_NULL once finalized. Sessions are local
  /// (MPI-4.0 section 11.3), so a rank's own list is all that exists of them.
  std::vector<MPI_Errhandler> sessions;
  /// MPI_T_init_thread calls not yet matched by MPI_T_finalize.
  int tool_inits = 0;
  /// MPI_T_pvar_session_create's sessions, by handle - 1: whether each is still open.
  std::vector<bool> tool_sessions;
  /// The launcher's variables as this rank's getenv() returns them (launcher_env.cpp), made on
  /// first read.
  std::string launcher_values[4];
  /// When the rank's path to the file system is free: its accesses, blocking or not, take it
  /// one after another.
  SimTime io_path_free = 0;
  /// The OpenMP controls the rank set outside its regions (-1: the process's), its own as each
  /// process of a real run has its own (openmp_interpose.cpp).
  struct OpenMpControls {
    int dynamic = -1;
    int schedule = -1; ///< omp_sched_t
    int chunk = 0;
    int max_active_levels = -1;
  } openmp;
  /// The team size the rank set with omp_set_num_threads (0: the process's): each process of a
  /// real run has its own.
  int omp_threads = 0;
  /// The interposer's record of the region it runs (region_threads; openmp_interpose.cpp), for
  /// the master's MPI calls.
  void* openmp_region = nullptr;
  /// The clock and the compute carried when that region began: the master's MPI calls in it and
  /// its end are charged from there (CallHooks::region_call).
  SimTime region_start_clock = 0;
  double region_start_carried_ps = 0;
  /// Handlers the rank registered with atexit() and on_exit(), oldest first: they run in the
  /// rank when it ends (returns from main or calls exit()), as in its own process, before its
  /// destructors.
  std::vector<ExitHandler> at_exit;
};

struct Rank {
  Task task;
  int id = 0; ///< world rank
  /// What may still start a leg of this rank's earlier than its clock, from another rank's
  /// fiber: rendezvous sends whose data is not planned yet (it leaves when the clear-to-send is
  /// back), non-blocking collectives not finished (their steps send at their own times), windows
  /// that serve passive-target requests (replies at the requests' times). While there is none,
  /// a leg the rank's own code starts is Leg::in_order.
  int later_legs = 0;
  SimTime clock = 0;
  /// Lower bound from the protocol: every message still to arrive here has ts >= eit, and every
  /// request of this rank the network is still to complete completes at or after it.
  SimTime eit = 0;
  /// Blocked in a test or probe: waits until eit > decide_time (or a request completes).
  SimTime decide_time = kTimeInfinity;
  /// The earliest a request the network started for this rank after its latest look at what
  /// it holds (World::network_epoch, then floor_epoch) may complete: bounds made from that look
  /// know nothing of it (await_network).
  SimTime network_floor = kTimeInfinity;
  std::uint32_t floor_epoch = 0;
  /// Receives freed while active (MPI_Request_free): each takes its message when it comes,
  /// and the rank lets them before it leaves an MPI call (deliver_released_receives).
  int released_receives = 0;
  /// Smallest time at which an undecided receive of this rank could take effect: the least
  /// Request::undecided_key of its posted receives, which `undecided_at_key` of them hold.
  SimTime undecided_key = kTimeInfinity;
  std::uint32_t undecided_at_key = 0;
  bool in_undecided_list = false;
  /// Listed in World::may_wait_elsewhere() (padding that was there anyway).
  bool in_elsewhere_list = false;
  bool initialized = false;
  bool finalized = false;
  /// Replies this rank's sends still await from other host processes (a rendezvous, synchronous
  /// or buffered send to a rank there): input from elsewhere that no posted receive shows.
  int remote_replies = 0;

  // What every MPI call reads or writes, beside the clocks above: at a thousand ranks and more
  // a rank's state has left the caches by the time it runs again, and each line of it that a
  // call touches costs a miss (docs/performance.md, A rank's hot state in few lines).
  int call_depth = 0; ///< nesting of MPI calls (collectives call point-to-point)
  /// Threads of the OpenMP team the rank runs a region of (0: none).
  int region_threads = 0;
  CallInfo call;
  const char* last_call = nullptr; ///< the latest MPI call entered (for fault reports)
  RankStats stats;
  std::uint64_t next_seq = 0; ///< of this rank's next send (Message::seq)
  /// The critical path that set the clock (MPISIM_CRITICAL_PATH; null when off): its total is
  /// the clock at all times.
  std::unique_ptr<CritPath> path;

  PostedQueue posted;         ///< unmatched receives, in post order
  UnexpectedQueue unexpected; ///< arrived, unmatched messages, in arrival order

  std::uint64_t compute_mark = 0; ///< kernel's host clock at the last exit from MPI
  /// Target time (ps) of the compute burst under way measured so far: its parallel regions
  /// and what came before them. It is charged with the rest of the burst.
  double compute_carried_ps = 0;

  PrivateSegment globals; ///< this rank's copy of the program's privatized variables
  /// This rank's copy of the program's arguments, in one block: argc + 1 pointers (the last
  /// null), then the strings they point to.
  std::unique_ptr<char*[]> argv;

  int exit_code = 0;
  bool exited = false; ///< ended by exit() rather than by returning from main
  RankComms comms;     ///< context ids in use; error handlers, names, attributes per communicator
  /// Collectives this rank started per collective context: the next one's tag, so that
  /// concurrent non-blocking collectives on one communicator never take each other's messages.
  /// A communicator that reuses a context must erase its entry (on every member, when freed).
  /// A flat map: a rank uses a few contexts, and a hash map cost about 200 bytes per rank
  /// once it held one.
  boost::container::flat_map<int, std::uint32_t> collectives_started;
  /// What few programs use (buffered sends, MPI_File error handlers, sessions, the tool
  /// interface), made on first use: a rank that never calls them costs a pointer instead of
  /// 112 bytes (docs/large-scale.md, What a rank costs).
  std::unique_ptr<RankRare> rare_state;
  RankRare& rare() {
    if (!rare_state) rare_state = std::make_unique<RankRare>();
    return *rare_state;
  }
  /// For reading only: the defaults while nothing was set.
  const RankRare& rare_or_default() const;

  /// Advances the clock to `t` (if later), accounting the gap as waiting, except for the first
  /// `busy` of it, spent in overheads (a collective's). `cause`: the critical path that set `t`.
  void wait_until(SimTime t, const CritPath* cause = nullptr, SimTime busy = 0) {
    if (t <= clock) return;
    const SimTime comm = std::min(busy, t - clock);
    stats.comm += comm;
    stats.wait += t - clock - comm;
    if (path) path->reach(t, cause, id, call.name);
    clock = t;
  }
  /// Overheads of the rank's own: `part` says which (PathPart::Transfer for file accesses).
  void spend_comm(SimTime dt, PathPart part) {
    clock += dt;
    stats.comm += dt;
    if (path) path->add(part, dt, id, call.name);
  }
  void spend_compute(SimTime dt) {
    clock += dt;
    stats.compute += dt;
    if (path) path->add(PathPart::Compute, dt, id, call.name);
  }
};

/// Destroys a Rank that World made: in place, where it lives in the top page of its fiber's
/// stack, or on the heap.
struct RankDeleter {
  bool in_place = false;
  void operator()(Rank* r) const;
};
using RankPtr = std::unique_ptr<Rank, RankDeleter>;

} // namespace mpilite
