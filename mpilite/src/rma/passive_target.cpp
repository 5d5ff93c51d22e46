#include "passive_target.hpp"

#include <cstring>
#include <deque>
#include <iterator>
#include <list>
#include <span>
#include <string>
#include <vector>

#include "cancel.hpp"
#include "comm.hpp"
#include "datatype_wire.hpp"
#include "idle_hooks.hpp"
#include "p2p.hpp"
#include "rma_apply.hpp"
#include "world.hpp"

namespace mpilite {

class PassiveTarget;

/// What to run when a receive of the service completes.
struct Step {
  void (*fn)(void*);
  void* arg;
  const Rank* owner = nullptr; ///< the target, whose window its work reaches (World::defer)
};

/// A batch as it arrives: who sent it, what it asks for, its operations (once they are there).
struct Batch {
  PassiveTarget* target = nullptr;
  int source = 0; ///< rank in the window's communicator
  BatchHeader header;
  std::vector<std::byte> operations;
  Request* receiving = nullptr; ///< of the operations
  Step step{};                  ///< when they are there
  bool arrived = false;
  SimTime sent = 0; ///< the header's time stamp: batches are served in its order
  SimTime time = 0; ///< when the operations are there
};

class PassiveTarget {
public:
  PassiveTarget(World& w, Rank& r, Window& win)
      : w_(w), r_(r), win_(win), comm_(*w.comm(win.passive_comm)),
        bytes_(*builtin_datatype(MPI_BYTE)) {
    add_idle_hook(this, &PassiveTarget::drain_when_idle);
    ++r_.later_legs; // until stop()
  }
  ~PassiveTarget() { remove_idle_hook(this); }
  PassiveTarget(const PassiveTarget&) = delete;
  PassiveTarget& operator=(const PassiveTarget&) = delete;

  /// Posts the receive of the next batch header. It is posted again as soon as a header comes:
  /// a receive from any source may only be matched under a bound that covers every source, and
  /// the one that matched it was such a bound. Every one is posted as of the service's start:
  /// the service acts on a header at the header's own stamp (not before it started), which for
  /// one from this rank itself may lie below the time of any later post (and the protocols
  /// must know it may act then).
  void await_header() {
    header_receive_ = receive_at(w_, r_, started_, &header_, sizeof header_, bytes_, MPI_ANY_SOURCE,
                                 kBatchHeaderTag, comm_.context, comm_);
    when_complete(*header_receive_, header_step_);
  }

  void stop() {
    --r_.later_legs;
    header_receive_->on_complete = nullptr;
    cancel(w_, r_, *header_receive_);
    w_.free_request(header_receive_);
    header_receive_ = nullptr;
    std::vector<Request*> sends;
    for (Reply& q : replies_)
      sends.push_back(q.send);
    wait_all(w_, r_, sends.data(), sends.size());
    for (Request* q : sends)
      w_.free_request(q);
    replies_.clear();
  }

private:
  struct Reply {
    Request* send;
    std::vector<std::byte> data;
  };

  /// Runs `step.fn(step.arg)` once `q` is complete, outside of any matching (World::defer).
  void when_complete(Request& q, Step& step) {
    step.owner = &r_;
    if (q.complete) {
      w_.defer(step.fn, step.arg, step.owner);
      return;
    }
    q.completion_context = &step;
    q.on_complete = [](Request&, void* s) {
      const Step& st = *static_cast<const Step*>(s);
      World::get().defer(st.fn, st.arg, st.owner);
    };
  }

  /// A finished receive's time (a receive posted late takes effect when posted); frees it.
  SimTime take(Request*& q) {
    const SimTime t = std::max(q->post_time, q->ready_time);
    w_.free_request(q);
    q = nullptr;
    return t;
  }

  static void header_arrived(void* self) {
    auto& p = *static_cast<PassiveTarget*>(self);
    Batch b;
    b.target = &p;
    b.source = p.header_receive_->status.MPI_SOURCE;
    b.header = p.header_;
    b.sent = p.header_receive_->ready_time;
    p.take(p.header_receive_);
    p.await_header();
    // In the order of their time stamps (ties: lower origin first). A header from this rank
    // itself may come after later ones from others: the bound that let them match does not
    // cover the rank's own messages.
    auto at = p.arriving_.end();
    while (at != p.arriving_.begin() && later(*std::prev(at), b))
      --at;
    Batch& in = *p.arriving_.insert(at, std::move(b));
    in.operations.resize(in.header.batch_bytes);
    // As of the header's own stamp: when a batch is served must not depend on when its header
    // was matched (a header of this rank may be matched after later ones).
    in.receiving = receive_at(p.w_, p.r_, std::max(p.started_, in.sent), in.operations.data(),
                              in.operations.size(), p.bytes_, p.comm_.world_of(in.source, p.r_.id),
                              kBatchTag, p.comm_.context, p.comm_);
    in.step = {&PassiveTarget::batch_arrived, &in};
    p.when_complete(*in.receiving, in.step);
  }

  static bool later(const Batch& a, const Batch& b) {
    if (a.sent != b.sent) return a.sent > b.sent;
    return a.source > b.source;
  }

  static void batch_arrived(void* batch) {
    auto& b = *static_cast<Batch*>(batch);
    b.time = b.target->take(b.receiving);
    b.arrived = true;
    b.target->drain();
  }

  /// Serves the batches whose turn has come: in order, each after the one before it. A batch
  /// waits while this rank could still send itself one stamped earlier: while it runs (or is
  /// about to) at a clock below the batch's stamp. Once it blocks, it can act again only at a
  /// time the bound that matched the batch lies below; the host's idle hook serves then.
  bool drain() {
    sweep_replies();
    const bool rank_waits = r_.task.state == TaskState::Blocked || r_.task.state == TaskState::Done;
    bool did = false;
    while (!arriving_.empty() && arriving_.front().arrived &&
           (rank_waits || arriving_.front().sent <= r_.clock)) {
      Batch next = std::move(arriving_.front());
      arriving_.pop_front();
      served_until_ = std::max(served_until_, next.time);
      if (grantable(next.header.lock, false)) {
        serve(next, served_until_);
      } else {
        waiting_.push_back(std::move(next));
      }
      did = true;
    }
    return did;
  }

  /// The operations reach the target's window, which may lie on its stack: they run with that
  /// stack in place (Scheduler::run_for), whichever rank's fiber is idle.
  static bool drain_when_idle(void* self) {
    auto& p = *static_cast<PassiveTarget*>(self);
    p.w_.scheduler().run_for(
        p.r_.task,
        [](void* s) {
          static_cast<PassiveTarget*>(s)->drained_ = static_cast<PassiveTarget*>(s)->drain();
        },
        &p);
    return p.drained_;
  }

  /// Whether a batch asking for `lock` may be served now; `first_waiting`: it is the oldest
  /// waiting batch (the others wait behind it, so that an exclusive lock is not starved).
  bool grantable(int lock, bool first_waiting) const {
    if (lock == 0) return true;
    if (!first_waiting && !waiting_.empty()) return false;
    if (lock == MPI_LOCK_EXCLUSIVE) return exclusive_ < 0 && shared_ == 0;
    return exclusive_ < 0;
  }

  void serve(const Batch& b, SimTime t) {
    if (w_.track_served) w_.served[r_.id].push_back(b.source);
    if (b.header.lock == MPI_LOCK_EXCLUSIVE) exclusive_ = b.source;
    if (b.header.lock == MPI_LOCK_SHARED) ++shared_;
    Reply& reply = replies_.emplace_back();
    append_bytes(reply.data, int{MPI_SUCCESS});
    std::size_t at = 0;
    std::string why;
    while (at < b.operations.size()) {
      std::uint64_t n = 0;
      std::memcpy(&n, b.operations.data() + at, sizeof n);
      at += sizeof n;
      const int e =
          apply_rma(win_, b.source, std::span(b.operations.data() + at, n), reply.data, why);
      at += n;
      // The origin checked the range against the size the window had at its creation.
      if (e != MPI_SUCCESS) std::memcpy(reply.data.data(), &e, sizeof e);
    }
    reply.send = send_at(w_, r_, t, SendMode::Standard, reply.data.data(), reply.data.size(),
                         bytes_, comm_.world_of(b.source, r_.id), kBatchReplyTag, comm_.context);
    if (!b.header.unlock) return;
    if (exclusive_ == b.source) {
      exclusive_ = -1;
    } else {
      --shared_;
    }
    while (!waiting_.empty() && grantable(waiting_.front().header.lock, true)) {
      const Batch next = std::move(waiting_.front());
      waiting_.pop_front();
      serve(next, t);
    }
  }

  /// Frees the replies that have been sent.
  void sweep_replies() {
    while (!replies_.empty() && replies_.front().send->complete) {
      w_.free_request(replies_.front().send);
      replies_.pop_front();
    }
  }

  World& w_;
  Rank& r_;
  Window& win_;
  const Comm& comm_;
  const Datatype& bytes_;
  BatchHeader header_;
  Request* header_receive_ = nullptr;
  Step header_step_{&PassiveTarget::header_arrived, this};
  std::list<Batch> arriving_; ///< in the order of their headers (a list: batches stay put)
  SimTime served_until_ = 0;
  bool drained_ = false;             ///< what the last drain_when_idle did
  const SimTime started_ = r_.clock; ///< when the window was made
  int exclusive_ = -1;               ///< holder of the exclusive lock, or -1
  int shared_ = 0;                   ///< holders of a shared lock
  std::deque<Batch> waiting_;
  std::deque<Reply> replies_; ///< a deque: the data of a reply stays put while it is sent
};

std::shared_ptr<PassiveTarget> serve_passive_target(World& w, Rank& r, Window& win) {
  auto p = std::make_shared<PassiveTarget>(w, r, win);
  p->await_header();
  return p;
}

void stop_passive_target(PassiveTarget& p) {
  p.stop();
}

} // namespace mpilite
