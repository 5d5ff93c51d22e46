// A collective operation of one rank as a schedule: the algorithm written once, run either to
// completion (blocking collectives) or in the background (non-blocking ones).
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
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

/// The steps of one rank's part of a collective: batches of messages that are issued together
/// and complete together, and local steps (copies, reductions) between them.
///
/// Time: a batch starts when everything before it has completed, at the simulated time the last
/// of it completed (not at the owner's clock: the owner may be computing meanwhile). Its sends
/// are issued one after another, each taking the send overhead; its receives are posted after
/// the sends before them; it completes as the blocking calls MPI_Send, MPI_Recv and MPI_Sendrecv
/// would, with each receive's overhead charged in completion order. Local steps take no time.
/// A blocking collective waits for its schedule, so its rank's clock ends where the schedule
/// ends, exactly as if the algorithm had been written with blocking calls.
///
/// Progress: the schedule advances whenever its messages complete, in whatever fiber completes
/// them (World::defer), so a non-blocking collective progresses while its rank computes or waits
/// for something else.
class Schedule {
public:
  /// A schedule of the calling rank `owner` on communicator `comm`; its messages use the
  /// communicator's collective context and a tag of their own (the number of the collective on
  /// that communicator, counted when it starts).
  /// `comm` is only used while the schedule is built (peers are translated to world ranks).
  Schedule(World& w, Rank& owner, const Comm& comm);
  Schedule(const Schedule&) = delete;
  Schedule& operator=(const Schedule&) = delete;

  int rank() const { return me_; }   ///< the owner's rank in the communicator
  int size() const { return size_; } ///< the communicator's size

  /// Adds a message to the open batch; `peer` is a rank of the communicator.
  void post_send(const void* buf, std::size_t count, const Datatype& type, int peer,
                 SendMode mode = SendMode::Standard) {
    add(true, mode, buf, count, type, peer);
  }
  void post_recv(void* buf, std::size_t count, const Datatype& type, int peer) {
    add(false, SendMode::Standard, buf, count, type, peer);
  }
  /// Ends the open batch (the next message starts a new one).
  void close() { open_ = false; }
  /// One-message batches, and MPI_Sendrecv's batch (send, then receive).
  void send(const void* buf, std::size_t count, const Datatype& type, int peer) {
    post_send(buf, count, type, peer);
    close();
  }
  void recv(void* buf, std::size_t count, const Datatype& type, int peer) {
    post_recv(buf, count, type, peer);
    close();
  }
  void exchange(const void* sbuf, std::size_t scount, const Datatype& stype, int dest, void* rbuf,
                std::size_t rcount, const Datatype& rtype, int source) {
    post_send(sbuf, scount, stype, dest);
    post_recv(rbuf, rcount, rtype, source);
    close();
  }
  /// A local step after everything added so far; returns an MPI error code (MPI_SUCCESS).
  void then(std::function<int()> step);

  /// Scratch space for `count` elements of `type` that lives as long as the schedule.
  void* scratch(std::size_t count, const Datatype& type);
  /// A copy of `type` that lives as long as the schedule (the program may free a derived type
  /// while a non-blocking collective still uses it).
  const Datatype& keep(const Datatype& type);

  /// The reduction operation of reducing collectives (copied: the program may free it).
  void set_op(const Op& op) { op_ = op; }
  const Op& op() const { return op_; }
  /// Queues inout = in op inout over `count` elements as a local step.
  void reduce(const void* in, void* inout, std::size_t count, const Datatype& type);

  /// Starts the schedule at the owner's clock and returns its request, which completes when the
  /// last step has (status: empty, MPI_ERROR: the first error of a step or receive).
  friend Request* start_schedule(std::shared_ptr<Schedule> s);

private:
  struct Message {
    bool send;
    SendMode mode;
    void* buf;
    std::size_t count;
    const Datatype* type;
    int peer; ///< world rank
    Request* request = nullptr;
  };
  struct Step {
    std::size_t first = 0, last = 0; ///< messages [first, last) of a batch
    std::function<int()> local;      ///< or a local step
  };

  void add(bool send, SendMode mode, const void* buf, std::size_t count, const Datatype& type,
           int peer);
  static void resume(void* self);
  static void message_done(Request& q, void* self);
  void issue(Step& batch);
  void collect(Step& batch);
  void finish();
  void note_error(int code) {
    if (error_ == MPI_SUCCESS) error_ = code;
  }

  World& w_;
  Rank& owner_;
  int me_, size_;
  int context_, tag_ = 0;
  const Comm* comm_; ///< while building
  std::vector<Message> messages_;
  std::vector<Step> steps_;
  bool open_ = false;
  std::deque<TypedBuffer> scratch_;
  std::deque<Datatype> types_;
  Op op_;

  Request* request_ = nullptr;
  std::size_t next_ = 0; ///< next step to run
  bool issued_ = false;  ///< steps_[next_] is a batch whose messages are out
  int pending_ = 0;      ///< its messages not yet complete
  SimTime time_ = 0;     ///< simulated time the schedule has reached
  SimTime busy_ = 0;     ///< overheads spent on the way
  int error_ = MPI_SUCCESS;
};

/// Runs `s` to completion as a blocking collective of its owner; returns its MPI error code.
int run_schedule(World& w, Rank& r, std::shared_ptr<Schedule> s);

} // namespace mpilite
