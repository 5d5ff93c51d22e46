#include "collective_schedule.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "buffer_reach.hpp"
#include "privatization.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

/// Receives of a schedule report their source as a world rank; nothing reads it.
const Comm& world_ranks() {
  static const Comm identity = [] {
    Comm c;
    c.size = std::numeric_limits<int>::max();
    c.group = RankList::identity(c.size);
    return c;
  }();
  return identity;
}

} // namespace

Schedule::Schedule(World& w, Rank& owner, const Comm& comm)
    : w_(w), owner_(owner), me_(comm.rank_of(owner.id)), size_(comm.size),
      context_(comm.coll_context()), comm_(&comm) {
  batch_.reserve(2); // an exchange: most batches
}

void Schedule::post_send(const void* buf, std::size_t count, const Datatype& type, int peer,
                         SendMode mode) {
  add(true, mode, buf, count, type, comm_->world_of(peer, owner_.id));
}

void Schedule::post_recv(void* buf, std::size_t count, const Datatype& type, int peer) {
  add(false, SendMode::Standard, buf, count, type, comm_->world_of(peer, owner_.id));
}

void Schedule::post_send_across(const void* buf, std::size_t count, const Datatype& type,
                                int peer) {
  add(true, SendMode::Standard, buf, count, type, comm_->remote->world(peer));
}

void Schedule::post_recv_across(void* buf, std::size_t count, const Datatype& type, int peer) {
  add(false, SendMode::Standard, buf, count, type, comm_->remote->world(peer));
}

void Schedule::add(bool send, SendMode mode, const void* buf, std::size_t count,
                   const Datatype& type, int world_peer) {
  Message& m = batch_.emplace_back();
  m.send = send;
  m.mode = mode;
  m.peer = world_peer;
  m.buf = const_cast<void*>(buf);
  m.count = count;
  m.type = &type;
}

void* Schedule::scratch(std::size_t count, const Datatype& type) {
  return scratch_.emplace_back(count, type).get();
}

const Datatype& Schedule::keep(const Datatype& type) {
  if (type.predefined) return type;
  return *types_.emplace_back(std::make_unique<Datatype>(type));
}

void Schedule::reduce(const void* in, void* inout, std::size_t count, const Datatype& type) {
  if (count == 0) return;
  const SegmentScope globals(owner_.task.data_base);
  if (op_.user_defined()) { // the user's function may reach the owner's stack by other ways
    const World::ActingFor owner(w_, owner_);
    note_error(apply_op(op_, type, in, inout, count));
    return;
  }
  // Another rank's fiber may run this while the owner's stack is parked (stack copying). What is
  // written is reached last: reaching may bring a stack back, which leaves a copy already
  // reached as it was, fine to read from but no longer to write to.
  Scheduler& sched = w_.scheduler();
  const void* from = reach(sched, owner_.task, in, count, type);
  void* to = reach(sched, owner_.task, inout, count, type);
  note_error(apply_op(op_, type, from, to, count));
}

void Schedule::copy_out(const void* from, void* to, std::size_t count, const Datatype& type) {
  if (count == 0) return;
  copy_elements(from, reach(w_.scheduler(), owner_.task, to, count, type), count, type);
}

void Schedule::start(Request* q) {
  // Numbered when started, not when built: a call that fails its argument checks has built part
  // of a schedule on this rank only.
  const std::uint32_t n = owner_.collectives_started[context_]++;
  tag_ = static_cast<int>(n & 0x3fffffffu);
  // An intercommunicator's collective context also carries its leaders' agreements, with tags
  // below this bit (intercomm.cpp); both groups count the collectives alike, and a message
  // within a group and one between the groups never have the same pair of ends.
  if (comm_->inter()) tag_ |= 0x40000000;
  request_ = q;
  time_ = owner_.clock;
  if (request_) {
    ++owner_.later_legs; // until finish()
    request_->post_time = time_;
  }
  if (owner_.path) path_ = std::make_unique<CritPath>(*owner_.path);
  call_ = owner_.call.name;
  w_.defer(&Schedule::resume, this, &owner_);
}

Request* start_schedule(std::shared_ptr<Schedule> s) {
  Schedule& x = *s;
  Request* q = x.world().new_request(x.owner(), RequestKind::Collective);
  q->owned = std::move(s);
  x.start(q);
  return q;
}

void Schedule::resume(void* self) {
  Schedule& s = *static_cast<Schedule*>(self);
  if (s.waiting_) {
    s.collect();
    std::exchange(s.waiting_, {}).resume();
  } else {
    s.body_.start();
  }
  if (s.body_.done()) s.finish();
}

bool Schedule::Batch::await_suspend(std::coroutine_handle<> body) {
  s_.issue();
  if (s_.pending_ > 0) {
    s_.waiting_ = body;
    return true; // message_done resumes the body
  }
  s_.collect();
  return false;
}

void Schedule::issue() {
  // Held while issuing: a message may complete during a later one's issue, and the batch must
  // not look complete before all of its messages are out.
  pending_ = 1;
  for (Message& m : batch_) {
    if (m.send) {
      m.request = send_at(w_, owner_, time_, m.mode, m.buf, m.count, *m.type, m.peer, tag_,
                          context_, 0, path_.get());
      spend(m.request->send_overhead, PathPart::SendOverhead);
    } else {
      m.request = receive_at(w_, owner_, time_, m.buf, m.count, *m.type, m.peer, tag_, context_,
                             world_ranks(), 0, path_.get());
    }
    if (m.request->complete) {
      settle(m);
    } else {
      ++pending_;
      m.request->on_complete = &Schedule::message_done;
      m.request->completion_context = this;
      m.request->wakes_owner = false; // finish() wakes it
    }
  }
  --pending_;
}

void Schedule::message_done(Request&, void* self) {
  Schedule& s = *static_cast<Schedule*>(self);
  if (--s.pending_ == 0) s.w_.defer(&Schedule::resume, &s, &s.owner_);
}

void Schedule::settle(Message& m) {
  Request& q = *m.request;
  m.ready = q.ready_time;
  m.path = std::move(q.path);
  if (!m.send) {
    m.recv_overhead = q.recv_overhead;
    m.received = q.message_bytes;
    m.error = q.status.MPI_ERROR;
  }
  w_.free_request(&q);
  m.request = nullptr;
}

void Schedule::collect() {
  for (Message& m : batch_)
    if (m.request) settle(m);
  // As wait_all charges a rank: completions in time order (ties: issue order), each receive
  // adding its overhead after its data is there. Batches are small: insertion sort.
  const std::size_t n = batch_.size();
  for (std::size_t i = 1; i < n; ++i)
    for (std::size_t j = i; j > 0 && batch_[j - 1].ready > batch_[j].ready; --j)
      std::swap(batch_[j - 1], batch_[j]);
  int dest = -1; // of the send; -1 without one
  bool received = false;
  std::size_t sent_bytes = 0, received_bytes = 0;
  for (Message& m : batch_) {
    if (path_ && m.ready > time_) path_->reach(m.ready, m.path.get(), owner_.id, call_);
    time_ = std::max(time_, m.ready);
    if (m.send) {
      dest = m.peer;
      sent_bytes = m.count * m.type->size;
    } else {
      spend(m.recv_overhead, PathPart::RecvOverhead);
      received_bytes = m.received;
      received = true;
      note_error(m.error);
    }
  }
  // As MPI_Sendrecv, only with both a send and a receive (neither to MPI_PROC_NULL).
  if (std::exchange(exchange_, false) && dest >= 0 && received) {
    spend(exchange_extra(w_, owner_, dest, sent_bytes, received_bytes), PathPart::SendOverhead);
  }
  batch_.clear();
}

void Schedule::spend(SimTime dt, PathPart part) {
  time_ += dt;
  busy_ += dt;
  if (path_) path_->add(part, dt, owner_.id, call_);
}

void Schedule::finish() {
  done_ = true;
  if (Request* q = request_) {
    q->status = MPI_Status{};
    q->status.MPI_SOURCE = MPI_ANY_SOURCE;
    q->status.MPI_TAG = MPI_ANY_TAG;
    q->status.MPI_ERROR = error_;
    q->busy = busy_;
    q->path = std::move(path_);
    mark_complete(*q, time_);
    --owner_.later_legs;
  }
  w_.scheduler().wake(owner_.task);
}

int run_schedule(World& w, Rank& r, std::shared_ptr<Schedule> s) {
  // Kept alive by the World, not by this frame: a rank that never returns from the collective
  // (the run ends in a deadlock or an abort) leaks nothing.
  Schedule& x = *s;
  std::shared_ptr<void>& hold = w.blocking_hold(r);
  if (hold) // one fiber per rank, and a blocking collective runs no MPI call of its owner's
    throw std::logic_error(fmt::format("rank {}: a blocking collective inside another", r.id));
  hold = std::move(s);
  x.start(nullptr);
  while (!x.done())
    w.scheduler().block();
  r.wait_until(x.end_time(), x.path(), x.overheads());
  const int error = x.error();
  hold.reset();
  return error;
}

} // namespace mpilite
