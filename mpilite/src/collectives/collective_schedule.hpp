// A collective operation of one rank as a schedule: the algorithm written once, as a coroutine
// that awaits its batches of messages, and run either to completion (blocking collectives) or in
// the background (non-blocking ones).
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <memory>
#include <utility>
#include <vector>

#include "collective_buffers.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "op.hpp"
#include "p2p.hpp"
#include "rank.hpp"
#include "request.hpp"

namespace mpilite {

class World;

/// The coroutine of a collective algorithm, or of a part of one that its caller awaits
/// (`co_await part(...)` runs the part to completion, then continues the caller). It starts
/// suspended; Schedule runs it.
class CollTask {
public:
  struct promise_type {
    std::coroutine_handle<> continuation;
    CollTask get_return_object() {
      return CollTask(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        if (std::coroutine_handle<> c = h.promise().continuation) return c;
        return std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };

  CollTask() = default;
  CollTask(CollTask&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  CollTask& operator=(CollTask&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  ~CollTask() {
    if (h_) h_.destroy();
  }

  bool done() const { return !h_ || h_.done(); }
  /// Runs the coroutine until it first waits (or ends).
  void start() { h_.resume(); }

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept {
    h_.promise().continuation = caller;
    return h_;
  }
  void await_resume() const noexcept {}

private:
  explicit CollTask(std::coroutine_handle<promise_type> h) : h_(h) {}
  std::coroutine_handle<promise_type> h_;
};

/// One rank's part of a collective: an algorithm coroutine (the body) that posts messages in
/// batches and awaits each batch, with local steps (copies, reductions) in between.
///
/// Time: a batch starts at the simulated time the one before it completed (not at the owner's
/// clock: the owner may be computing meanwhile). Its sends are issued one after another, each
/// taking the send overhead; its receives are posted after the sends before them; it completes
/// as MPI_Waitall would charge it: completions in time order, each receive adding its overhead
/// once its data is there. Local steps take no time. A blocking collective waits for its
/// schedule, so its rank's clock ends exactly where the same algorithm written with MPI_Send,
/// MPI_Recv and MPI_Sendrecv would leave it.
///
/// Progress: the body is resumed as soon as its batch completes, in whatever fiber completes it
/// (through World::defer), so a non-blocking collective progresses while its rank computes or
/// waits for something else. The body must therefore copy what it needs of its arguments before
/// it first waits, unless they outlive the operation (buffers, and the count and displacement
/// arrays MPI requires the program to keep).
class Schedule {
public:
  /// A schedule of the calling rank `owner` on communicator `comm`; its messages use the
  /// communicator's collective context and a tag of their own (the number of the collective on
  /// that communicator, counted when it starts). `comm` must live until the schedule ends (a
  /// communicator freed with collectives pending must be kept until they complete).
  ///
  /// On an intercommunicator, rank() and size() are those of the local group, the peers of
  /// post_send and post_recv are ranks of the local group (the collectives within the group
  /// that an intercommunicator collective is made of) and those of post_send_across and
  /// post_recv_across ranks of the remote group.
  Schedule(World& w, Rank& owner, const Comm& comm);
  Schedule(const Schedule&) = delete;
  Schedule& operator=(const Schedule&) = delete;

  int rank() const { return me_; }   ///< the owner's rank in the communicator
  int size() const { return size_; } ///< the communicator's size

  /// What `co_await` on a batch suspends on: resumes the body when all of it has completed.
  class [[nodiscard]] Batch {
  public:
    explicit Batch(Schedule& s) : s_(s) {}
    bool await_ready() const noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> body);
    void await_resume() const noexcept {}

  private:
    Schedule& s_;
  };

  /// Adds a message to the next batch; `peer` is a rank of the communicator.
  void post_send(const void* buf, std::size_t count, const Datatype& type, int peer,
                 SendMode mode = SendMode::Standard);
  void post_recv(void* buf, std::size_t count, const Datatype& type, int peer);
  /// Intercommunicators: a message to or from rank `peer` of the remote group.
  void post_send_across(const void* buf, std::size_t count, const Datatype& type, int peer);
  void post_recv_across(void* buf, std::size_t count, const Datatype& type, int peer);
  /// The remote group's size (intercommunicators).
  int remote_size() const { return comm_->remote->size(); }
  /// Whether the caller's group goes first where an intercommunicator collective moves data one
  /// way and then the other (MPICH's "low group"): the group whose leader has the lower world
  /// rank.
  bool low_group() const { return comm_->group->world(0) < comm_->remote->world(0); }
  /// The batch of the messages posted so far (an empty batch completes at once).
  Batch wait() { return Batch(*this); }
  /// One-message batches, and MPI_Sendrecv's batch (send, then receive), which also pays what an
  /// MPI_Sendrecv pays beyond its two messages (the machine's sendrecv_extra).
  Batch send(const void* buf, std::size_t count, const Datatype& type, int peer) {
    post_send(buf, count, type, peer);
    return wait();
  }
  Batch recv(void* buf, std::size_t count, const Datatype& type, int peer) {
    post_recv(buf, count, type, peer);
    return wait();
  }
  Batch exchange(const void* sbuf, std::size_t scount, const Datatype& stype, int dest, void* rbuf,
                 std::size_t rcount, const Datatype& rtype, int source) {
    post_send(sbuf, scount, stype, dest);
    post_recv(rbuf, rcount, rtype, source);
    exchange_ = true;
    return wait();
  }

  /// Scratch space for `count` elements of `type` that lives as long as the schedule.
  void* scratch(std::size_t count, const Datatype& type);
  /// A copy of `type` that lives as long as the schedule (the program may free a derived type
  /// while a non-blocking collective still uses it).
  const Datatype& keep(const Datatype& type);

  /// The reduction operation of reducing collectives (copied: the program may free it).
  void set_op(const Op& op) { op_ = op; }
  const Op& op() const { return op_; }
  /// inout = in op inout over `count` elements; an error is reported when the schedule ends.
  void reduce(const void* in, void* inout, std::size_t count, const Datatype& type);
  /// Copies `count` elements of `type` from scratch space into the owner's buffer `to`, reached
  /// as reduce() reaches it (the owner's stack may be parked while another fiber runs this).
  void copy_out(const void* from, void* to, std::size_t count, const Datatype& type);

  /// The algorithm to run (it must take this schedule).
  void set_body(CollTask body) { body_ = std::move(body); }

  /// Starts the schedule at the owner's clock, as a non-blocking collective whose request is
  /// `q` (completed when the body has ended; status: empty, MPI_ERROR: the first error of a
  /// reduction or receive), or, with `q` null, as a blocking one (run_schedule), whose owner
  /// waits for done(). A blocking one's legs follow the owner's earlier ones and precede its
  /// later ones; a non-blocking one counts in Rank::later_legs until it ends.
  void start(Request* q);
  /// A blocking collective's outcome, once done(): the time it ended, the overheads spent on
  /// the way, the critical path that set that time (null when off), its MPI error code.
  bool done() const { return done_; }
  SimTime end_time() const { return time_; }
  SimTime overheads() const { return busy_; }
  const CritPath* path() const { return path_.get(); }
  int error() const { return error_; }
  World& world() const { return w_; }
  Rank& owner() const { return owner_; }

private:
  /// A message of the batch in flight. Its request is freed as soon as it completes (settle),
  /// keeping only what collect() needs: a rank of a barrier or an allreduce blocks with its send
  /// complete and its receive pending, and a million such ranks would each hold two requests.
  struct Message {
    bool send;
    SendMode mode;
    int peer; ///< world rank
    void* buf;
    std::size_t count;
    const Datatype* type;
    Request* request = nullptr; ///< until settled
    int error = MPI_SUCCESS;    ///< receives: the status's
    SimTime ready = 0;
    SimTime recv_overhead = 0;
    std::size_t received = 0; ///< receives: the matched message's bytes
    std::unique_ptr<CritPath> path;
  };

  void add(bool send, SendMode mode, const void* buf, std::size_t count, const Datatype& type,
           int world_peer);
  static void resume(void* self);
  static void message_done(Request& q, void* self);
  void issue();
  void settle(Message& m);
  void collect();
  void finish();
  /// Overheads of the schedule's own, of `part`.
  void spend(SimTime dt, PathPart part);
  void note_error(int code) {
    if (error_ == MPI_SUCCESS) error_ = code;
  }

  World& w_;
  Rank& owner_;
  int me_, size_;
  int context_, tag_ = 0;
  const Comm* comm_;
  std::vector<Message> batch_;
  std::vector<TypedBuffer> scratch_;
  std::vector<std::unique_ptr<Datatype>> types_;
  Op op_;
  CollTask body_;

  Request* request_ = nullptr;
  std::coroutine_handle<> waiting_; ///< the coroutine waiting for the batch in flight
  int pending_ = 0;                 ///< messages of that batch not yet complete
  SimTime time_ = 0;                ///< simulated time the schedule has reached
  SimTime busy_ = 0;                ///< overheads spent on the way
  /// The critical path that set time_ (MPISIM_CRITICAL_PATH; null when off), and the call it is
  /// named after (the collective's).
  std::unique_ptr<CritPath> path_;
  const char* call_ = nullptr;
  bool exchange_ = false; ///< the batch in flight is an MPI_Sendrecv's
  bool done_ = false;
  int error_ = MPI_SUCCESS;
};

/// Starts `s` as a non-blocking collective and returns its request, which owns it.
Request* start_schedule(std::shared_ptr<Schedule> s);

/// Runs `s` to completion as a blocking collective of its owner `r`; returns its MPI error code.
/// It needs no request: the owner waits for the schedule itself, which the World keeps alive
/// meanwhile (World::blocking_hold).
int run_schedule(World& w, Rank& r, std::shared_ptr<Schedule> s);

} // namespace mpilite
