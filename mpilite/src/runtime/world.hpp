// The MPI state of one host process: its ranks, handle tables and scheduler.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "attributes.hpp"
#include "comm.hpp"
#include "comm_table.hpp"
#include "datatype.hpp"
#include "errhandler.hpp"
#include "group_table.hpp"
#include "host_clock.hpp"
#include "info_table.hpp"
#include "kernel.hpp"
#include "message.hpp"
#include "min_tree.hpp"
#include "op.hpp"
#include "op_table.hpp"
#include "rank.hpp"
#include "request.hpp"
#include "run_end.hpp"
#include "sampling.hpp"
#include "scheduler.hpp"
#include "split_board.hpp"

namespace mpilite {

class OpLog;

class World {
public:
  using Main = std::function<int(int, char**)>;

  /// `local_ranks`: the world ranks this host process simulates, in increasing order.
  /// `copy_stacks`: stack copying (StackPoolOptions::copy_stacks). `state_in_stack`: each Rank
  /// lives at the top of its stack, in the page its fiber's first frames touch, instead of on the
  /// heap (StackPoolOptions::top_reserve), where each stack has a guard page of its own; not
  /// with `copy_stacks`. `shared_slots`: with `copy_stacks`, the ranks share this many stacks
  /// (StackPoolOptions::shared_slots); 0: each its own, parked behind guard regions.
  World(const Kernel& kernel, int world_size, std::vector<int> local_ranks, std::size_t stack_size,
        bool copy_stacks = false, bool state_in_stack = false, std::size_t shared_slots = 0);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  /// Ends the life of `world` after its run: destroys it, unless a rank's OpenMP team is still
  /// in a region (the run ended from its master's MPI call, or while its workers were busy).
  /// Those threads go on running the rank's code, its privatized data and the region on its
  /// stack until the process exits, so such a world then stays in memory to the end, detached
  /// (World::try_get() no longer finds it, and another simulation may run).
  static void end(std::unique_ptr<World> world);

  /// The world of the running simulation.
  static World& get() { return *current_; }
  static World* try_get() { return current_; }
  /// The world if the caller is a rank's code on the simulation thread, else null: before or
  /// after the simulation, in the simulator's own code between fibers, or on another thread (an
  /// OpenMP team's, the transport's). What the C library's interposed functions ask.
  static World* of_calling_rank() {
    World* w = current_;
    return w && w->in_rank_on_this_thread() ? w : nullptr;
  }

  /// Runs `main` once per local rank, each on its own fiber, until all return, the program
  /// deadlocks or aborts.
  RunEnd run(const Main& main, int argc, char** argv);
  /// When run() had every local rank spawned and started the first: the end of the set-up.
  HostSteadyClock::time_point spawned_at() const { return spawned_at_; }
  /// Local ranks whose fibers run() has spawned so far; may be read from any thread.
  std::size_t spawned() const { return spawned_.load(std::memory_order_relaxed); }

  /// The calling rank: the one whose fiber is running, or the one a user's function runs for
  /// (ActingFor). Only valid inside either.
  Rank& self() { return acting_for_ ? *acting_for_ : *static_cast<Rank*>(sched_.current()->arg); }
  bool in_rank() const { return sched_.in_fiber(); }
  /// in_rank(), asked from any thread: false on the simulator's other threads (its watchdog,
  /// MPICH's), which run while a rank's fiber is current on the simulation thread. True too
  /// while a user's function runs for a rank (ActingFor).
  bool in_rank_on_this_thread() const {
    return on_simulation_thread() && (in_rank() || acting_for_);
  }
  /// While alive, the calling rank is `owner`, inside an MPI call of its own: a user's MPI_Op
  /// that a collective runs for its owner where another rank's fiber or the scheduler delivers
  /// the owner's message. The MPI calls the function makes (MPI_Type_size, MPI_Comm_rank) are
  /// the owner's, as each process runs its own reductions.
  class ActingFor {
  public:
    ActingFor(World& w, Rank& owner);
    ~ActingFor();
    ActingFor(const ActingFor&) = delete;
    ActingFor& operator=(const ActingFor&) = delete;

  private:
    World& w_;
    Rank& owner_;
    Rank* saved_;
  };
  /// Whether the caller runs on the simulation thread (the scheduler's, or a rank's fiber).
  bool on_simulation_thread() const { return pthread_equal(pthread_self(), thread_); }
  Rank* local(int world_rank) {
    const int i = world_rank - first_local_;
    if (dense_ && i >= 0 && i < static_cast<int>(ranks_.size()))
      return ranks_[static_cast<std::size_t>(i)].get();
    return dense_ ? nullptr : find_sparse(world_rank);
  }
  const std::vector<RankPtr>& ranks() const { return ranks_; }
  /// Whether each Rank lives at the top of its stack (the constructor's `state_in_stack`, where
  /// every stack has a guard page of its own).
  bool states_in_stacks() const { return states_in_stacks_; }
  int size() const { return world_size_; }
  /// Whether every rank of the world lives in this host process (no other host takes part).
  bool whole_world_here() const { return ranks_.size() == static_cast<std::size_t>(world_size_); }
  Kernel& kernel() { return kernel_; }
  Scheduler& scheduler() { return sched_; }

  // Handles.
  Comm* comm(MPI_Comm h) { return comms_.find(h); }
  CommTable& comms() { return comms_; }
  /// MPI_Comm_split's entries where every member is in this host process.
  SplitBoard& split_board() { return split_board_; }
  const Datatype* datatype(MPI_Datatype h) const;
  MPI_Datatype add_datatype(Datatype&& t);
  /// MPI_Type_free: the handle becomes invalid at once; the type itself lives on while
  /// operations that retain()ed it are pending.
  bool free_datatype(MPI_Datatype h);
  /// Ends a use begun by retain(type).
  void release_datatype(const Datatype& t);
  GroupTable& groups() { return groups_; }
  Keyvals& keyvals() { return keyvals_; }
  Errhandlers& errhandlers() { return errhandlers_; }
  InfoTable& infos() { return infos_; }
  const Op* op(MPI_Op h) const {
    const Op* o = builtin_op(h);
    return o ? o : ops_.find(h);
  }
  OpTable& ops() { return ops_; }

  Request* new_request(Rank& owner, RequestKind kind);
  Request* request(MPI_Request h);
  Request* request_by_id(std::uint64_t id);
  void free_request(Request* r);
  /// The most requests that were ever pending at once: the pool keeps every request it made.
  std::size_t requests_made() const { return requests_.size(); }
  /// What the blocking collective that `r` runs keeps alive (its schedule), owned here so that a
  /// rank that never returns from it (a deadlock, an abort) leaks nothing. One slot per rank of
  /// this host process (a rank runs one blocking collective at a time), made at the run's first.
  std::shared_ptr<void>& blocking_hold(const Rank& r);

  Message* new_message();
  void free_message(Message* m);

  /// Runs `fn(arg)` once no matching is in progress: at once, or when the outermost
  /// MatchingScope ends. Completion callbacks that send or post receives (the steps of a
  /// collective schedule) go through here, so that they never re-enter the matching of a rank
  /// and chains of such steps across ranks run one after another instead of nesting. `owner`:
  /// the rank on whose behalf `fn` works, whose stack is then in place (Scheduler::run_for).
  void defer(void (*fn)(void*), void* arg, const Rank* owner = nullptr);

  /// Held by the matching entry points while they work (matching.cpp).
  class MatchingScope {
  public:
    explicit MatchingScope(World& w) : w_(w) { ++w_.matching_depth_; }
    ~MatchingScope() {
      if (--w_.matching_depth_ == 0) w_.run_deferred();
    }
    MatchingScope(const MatchingScope&) = delete;
    MatchingScope& operator=(const MatchingScope&) = delete;

  private:
    World& w_;
  };

  /// Ranks that have undecided receives or wait for a test/probe decision (for the protocols).
  std::vector<Rank*>& undecided() { return undecided_; }
  /// The network model is asked what it holds back, for the time bounds about to be raised
  /// (await_network).
  void network_looked() { ++network_epoch_; }
  std::uint32_t network_epoch() const { return network_epoch_; }
  /// To be called whenever `r.undecided_key` or `r.decide_time` changed.
  void note_undecided(Rank& r);
  /// The smallest min(undecided_key, decide_time) of the ranks not done (kTimeInfinity: none).
  SimTime earliest_undecided();
  /// With other host processes: every rank that may wait for input from one of them
  /// (waits_only_within_host() false), and perhaps more. Listing only the ranks that changed makes
  /// the question "does any?" cost what changed, not the rank count, at every idle round.
  std::vector<Rank*>& may_wait_elsewhere() { return elsewhere_; }
  /// To be called whenever `r` may have started to wait for input from another host process: it
  /// posted a receive, waits for a test or probe decision, or awaits a reply from there.
  void note_may_wait_elsewhere(Rank& r);
  /// `r` awaits one more reply from another host process (Rank::remote_replies), and is listed
  /// for it.
  void await_reply_from_elsewhere(Rank& r);

  /// How a rank's own call ends it: exit() runs its atexit() and on_exit() handlers and its
  /// static objects' destructors, _exit(), _Exit() and quick_exit() do not.
  enum class RankExit { WithHandlers, Immediate };
  /// Ends the calling rank as if its main had returned `code` (the program called exit()).
  [[noreturn]] void exit_rank(int code, RankExit how = RankExit::WithHandlers);
  /// atexit() in the calling rank: `handler` runs when the rank ends.
  void at_rank_exit(const ExitHandler& handler) { self().rare().at_exit.push_back(handler); }
  /// Ends the run from inside a fiber (MPI_Abort, fatal MPI error).
  [[noreturn]] void stop(RunEnd why, int exit_code, std::string message);
  /// Ends the run if `addr`, memory that other ranks' code will reach later by its address
  /// (`what`, e.g. "MPI_Buffer_attach: the attached buffer"), lies in a stack the ranks share
  /// (StackPool::on_shared_stack).
  void refuse_on_shared_stack(const void* addr, std::string_view what);
  /// Ends the run from outside the fibers (a limit reached while no rank runs): run() returns
  /// `why` as soon as the scheduler's idle callback returns false.
  void stop_when_idle(RunEnd why, int exit_code, std::string message);
  int exit_code() const { return exit_code_; }
  const std::string& stop_message() const { return stop_message_; }

  /// Steps of collectives completed while no rank runs (a frame from another host, a bound
  /// raised while the host is idle) that left their owners blocked (Request::wakes_owner):
  /// each may have sent to other hosts or posted receives from them, which the host's time
  /// bounds must then take in (mpisim's WorldLps::moved).
  std::uint64_t quiet_steps = 0;
  /// MPISIM_RECORD: where the ranks' operations are recorded (null: not recording).
  OpLog* op_log = nullptr;
  /// Recording and replaying: the origins (ranks of the window's communicator) whose batches
  /// each rank's passive targets served, by world rank, in order, since the recorder or the
  /// replay last took them (OpLog::enter, RankReplay): when a target served which origin is
  /// what its window's data, and so the program's next steps, depend on.
  bool track_served = false;
  std::unordered_map<int, std::vector<int>> served;
  /// MPISIM_SAMPLE_* call sites and their samples.
  SampleSites sample_sites;
  /// MPISIM_LIBC_TIME=simulated: the program's sleeps and clock reads are simulated
  /// (api_libc_time.cpp).
  bool simulated_libc_time = false;
  /// The calendar date, in seconds since 1970 (UTC), that a rank's real-time clocks read at
  /// simulated time zero (MPISIM_EPOCH): 2000-01-01T00:00:00Z unless the run says otherwise.
  std::int64_t calendar_epoch_s = kFixedCalendarEpoch;
  static constexpr std::int64_t kFixedCalendarEpoch = 946'684'800; ///< 2000-01-01T00:00:00Z
  /// The last clock read of a rank's program (read_clock, api_compute.hpp): which rank, at what
  /// simulated time, and how many reads in a row found that time.
  struct ClockRead {
    int rank = -1;
    SimTime at = -1;
    std::uint32_t repeats = 0;
  } last_clock_read;
  /// The rank that alone can act, as the synchronization core last found it when no rank could
  /// run (only_one_acts, lp_control.hpp), and its failed polls since (spend_poll, p2p.cpp).
  struct SoleActor {
    int rank = -1;
    std::uint64_t activity = 0; ///< activity() when it was found
    std::uint32_t polls = 0;
    SimTime compute_at = 0; ///< the rank's compute at its first poll counted
    /// Alone in the whole run, not only among this host's ranks (other host processes' ranks
    /// all wait too: a global round said so).
    bool whole_run = false;
    /// It polled to the limit while only this host was known: the host asks a global round.
    bool asks_run = false;
  } sole_actor;
  /// The machine's ranks per node (block placement: rank r on node r / ranks_per_node), as
  /// MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and MPI_Get_processor_name show it.
  int ranks_per_node = 1;
  int node_of(int world_rank) const { return world_rank / ranks_per_node; }

  std::uint64_t local_messages = 0;  ///< delivered within this host
  std::uint64_t remote_messages = 0; ///< handed to the transport
  /// Messages, replies and rendezvous legs that came from other host processes.
  std::uint64_t from_hosts = 0;

private:
  Rank* find_sparse(int world_rank);
  void recycle_datatype(std::size_t slot);
  void run_deferred();
  /// Gives up what the world registered process-wide (current_, idle hooks, rank names).
  void detach();
  /// Whether other threads of the rank's OpenMP team are in a region with it.
  static bool team_in_region(const Rank& r) {
    return r.region_threads > 1 && r.rare_or_default().openmp_region != nullptr;
  }
  /// The stacks of fibers that never finished stay for LeakSanitizer to scan (StackPool).
  void keep_abandoned_stacks();
  static void rank_entry(void* arg);
  [[gnu::noinline]] static void start_rank(World& w, Rank& r);
  [[gnu::noinline]] static void finish_rank(World& w, Rank& r);
  /// What ends a rank, with exit status `status`, as the end of its process would: atexit() and
  /// on_exit() handlers, then destructors.
  static void end_of_rank(Rank& r, int status);
  /// The rank's fiber is about to end: it decides nothing more.
  void retire(Rank& r) { decisions_.set(r.task.index, kTimeInfinity); }

  static World* current_;
  const pthread_t thread_ = pthread_self(); ///< the simulation thread (the one that made it)
  Kernel kernel_;
  int world_size_;
  int first_local_ = 0;
  bool dense_ = true;
  bool states_in_stacks_ = false;
  std::vector<int> rank_of_slot_;
  Scheduler sched_;
  Rank* acting_for_ = nullptr; ///< see ActingFor
  /// After sched_: a rank may live in its stack's top page, so it goes before the stacks do.
  std::vector<RankPtr> ranks_;
  CommTable comms_;
  SplitBoard split_board_;
  GroupTable groups_;
  Keyvals keyvals_;
  Errhandlers errhandlers_;
  InfoTable infos_;
  std::deque<Datatype> datatypes_; // derived types; handle = 0x8c000000 | index
  std::vector<std::uint32_t> free_datatypes_;
  std::deque<Request> requests_; // handle = 0xac000000 | index
  std::vector<std::uint32_t> free_requests_;
  std::vector<std::uint32_t> request_generation_;
  std::vector<Message*> free_messages_;
  std::vector<Rank*> undecided_;
  std::vector<Rank*> elsewhere_;
  /// min(undecided_key, decide_time) of each local rank, by its slot: the network asks for the
  /// earliest at every idle round, and walking every waiting rank for it made a round cost the
  /// rank count.
  MinTree decisions_;
  std::uint32_t network_epoch_ = 0;
  OpTable ops_;
  struct Deferred {
    void (*fn)(void*);
    void* arg;
    const Rank* owner;
  };
  std::vector<Deferred> deferred_;
  std::vector<std::shared_ptr<void>> blocking_holds_; ///< by stack slot (Task::index)
  int matching_depth_ = 0;
  bool running_deferred_ = false;
  const Main* main_ = nullptr;
  int argc_ = 0;
  char** argv_ = nullptr;
  RunEnd end_ = RunEnd::Finished;
  bool stopped_when_idle_ = false;
  HostSteadyClock::time_point spawned_at_{};
  std::atomic<std::size_t> spawned_{0};
  int exit_code_ = 0;
  std::string stop_message_;
};

} // namespace mpilite
