#include "collective_schedule.hpp"

#include <algorithm>

#include "world.hpp"

namespace mpilite {
namespace {

/// Receives of a schedule report their source as a world rank; nothing reads it.
const Comm& world_ranks() {
  static const Comm identity{};
  return identity;
}

} // namespace

Schedule::Schedule(World& w, Rank& owner, const Comm& comm)
    : w_(w), owner_(owner), me_(comm.rank_of(owner.id)), size_(comm.size),
      context_(comm.coll_context()), comm_(&comm) {}

void Schedule::add(bool send, SendMode mode, const void* buf, std::size_t count,
                   const Datatype& type, int peer) {
  if (!open_ || steps_.empty() || steps_.back().local) {
    steps_.push_back({messages_.size(), messages_.size(), {}});
    open_ = true;
  }
  messages_.push_back(
      {send, mode, const_cast<void*>(buf), count, &type, comm_->world_of(peer, owner_.id)});
  steps_.back().last = messages_.size();
}

void Schedule::then(std::function<int()> step) {
  open_ = false;
  steps_.push_back({0, 0, std::move(step)});
}

void* Schedule::scratch(std::size_t count, const Datatype& type) {
  return scratch_.emplace_back(count, type).get();
}

const Datatype& Schedule::keep(const Datatype& type) {
  if (type.predefined) return type;
  return types_.emplace_back(type);
}

void Schedule::reduce(const void* in, void* inout, std::size_t count, const Datatype& type) {
  if (count == 0) return;
  then([this, in, inout, count, &type] { return apply_op(op_, type, in, inout, count); });
}

Request* start_schedule(std::shared_ptr<Schedule> s) {
  Schedule& x = *s;
  x.open_ = false;
  x.comm_ = nullptr;
  // Numbered when started, not when built: a call that fails its argument checks has built part
  // of a schedule on this rank only.
  const std::uint32_t n = x.owner_.collectives_started[x.context_]++;
  x.tag_ = static_cast<int>(n & 0x3fffffffu);
  x.request_ = x.w_.new_request(x.owner_, RequestKind::Collective);
  x.request_->post_time = x.time_ = x.owner_.clock;
  x.request_->owned = std::move(s);
  x.w_.defer(&Schedule::resume, &x);
  return x.request_;
}

void Schedule::resume(void* self) {
  Schedule& s = *static_cast<Schedule*>(self);
  while (s.next_ < s.steps_.size()) {
    Step& step = s.steps_[s.next_];
    if (step.local) {
      s.note_error(step.local());
      ++s.next_;
      continue;
    }
    if (!s.issued_) s.issue(step);
    if (s.pending_ > 0) return; // message_done resumes
    s.collect(step);
    ++s.next_;
  }
  s.finish();
}

void Schedule::issue(Step& batch) {
  issued_ = true;
  // Held while issuing: a message may complete during a later one's issue, and the batch must
  // not look complete before all of its messages are out.
  pending_ = 1;
  for (std::size_t i = batch.first; i < batch.last; ++i) {
    Message& m = messages_[i];
    if (m.send) {
      m.request =
          send_at(w_, owner_, time_, m.mode, m.buf, m.count, *m.type, m.peer, tag_, context_);
      const SimTime overhead = w_.kernel().send_overhead(owner_.id, m.peer, m.count * m.type->size);
      time_ += overhead;
      busy_ += overhead;
    } else {
      m.request = receive_at(w_, owner_, time_, m.buf, m.count, *m.type, m.peer, tag_, context_,
                             world_ranks());
    }
    if (!m.request->complete) {
      ++pending_;
      m.request->on_complete = &Schedule::message_done;
      m.request->completion_context = this;
    }
  }
  --pending_;
}

void Schedule::message_done(Request&, void* self) {
  Schedule& s = *static_cast<Schedule*>(self);
  if (--s.pending_ == 0) s.w_.defer(&Schedule::resume, &s);
}

void Schedule::collect(Step& batch) {
  // As wait_all charges a rank: completions in time order (ties: issue order), each receive
  // adding its overhead after its data is there.
  std::vector<Message*> done;
  done.reserve(batch.last - batch.first);
  for (std::size_t i = batch.first; i < batch.last; ++i)
    done.push_back(&messages_[i]);
  std::stable_sort(done.begin(), done.end(), [](const Message* a, const Message* b) {
    return a->request->ready_time < b->request->ready_time;
  });
  for (Message* m : done) {
    Request& q = *m->request;
    time_ = std::max(time_, q.ready_time);
    if (!m->send) {
      time_ += q.recv_overhead;
      busy_ += q.recv_overhead;
      note_error(q.status.MPI_ERROR);
    }
    w_.free_request(&q);
    m->request = nullptr;
  }
  issued_ = false;
}

void Schedule::finish() {
  Request& q = *request_;
  q.status = MPI_Status{};
  q.status.MPI_SOURCE = MPI_ANY_SOURCE;
  q.status.MPI_TAG = MPI_ANY_TAG;
  q.status.MPI_ERROR = error_;
  q.busy = busy_;
  mark_complete(q, time_);
  w_.scheduler().wake(owner_.task);
}

int run_schedule(World& w, Rank& r, std::shared_ptr<Schedule> s) {
  Request* q = start_schedule(std::move(s));
  wait_all(w, r, &q, 1);
  const int error = q->status.MPI_ERROR;
  w.free_request(q);
  return error;
}

} // namespace mpilite
