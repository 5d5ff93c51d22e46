#include "passive_target.hpp"

#include <cstring>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "cancel.hpp"
#include "comm.hpp"
#include "datatype_wire.hpp"
#include "p2p.hpp"
#include "rma_apply.hpp"
#include "world.hpp"

namespace mpilite {

/// A batch as it arrived: who sent it, what it asks for, its operations.
struct Batch {
  int source = 0; ///< rank in the window's communicator
  BatchHeader header;
  std::vector<std::byte> operations;
};

class PassiveTarget {
public:
  PassiveTarget(World& w, Rank& r, Window& win)
      : w_(w), r_(r), win_(win), comm_(*w.comm(win.passive_comm)),
        bytes_(*builtin_datatype(MPI_BYTE)) {}

  /// Posts the receive of the next batch header, as of simulated time `at`.
  void await_header(SimTime at) {
    receiving_ = receive_at(w_, r_, at, &header_, sizeof header_, bytes_, MPI_ANY_SOURCE,
                            kBatchHeaderTag, comm_.context, comm_);
    when_complete(receiving_, &PassiveTarget::header_arrived);
  }

  void stop() {
    if (receiving_) {
      receiving_->on_complete = nullptr;
      cancel(w_, r_, *receiving_);
      w_.free_request(receiving_);
      receiving_ = nullptr;
    }
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

  /// Runs `step` once `q` is complete, outside of any matching (World::defer).
  void when_complete(Request* q, void (*step)(void*)) {
    step_ = step;
    if (q->complete) {
      w_.defer(step, this);
      return;
    }
    q->completion_context = this;
    q->on_complete = [](Request&, void* self) {
      auto* p = static_cast<PassiveTarget*>(self);
      p->w_.defer(p->step_, p);
    };
  }

  /// Takes a finished receive: its time (a receive posted late takes effect when posted).
  SimTime take_receive() {
    const SimTime t = std::max(receiving_->post_time, receiving_->ready_time);
    w_.free_request(receiving_);
    receiving_ = nullptr;
    return t;
  }

  static void header_arrived(void* self) {
    auto& p = *static_cast<PassiveTarget*>(self);
    p.incoming_.source = p.receiving_->status.MPI_SOURCE;
    p.incoming_.header = p.header_;
    const SimTime t = p.take_receive();
    p.incoming_.operations.resize(p.incoming_.header.batch_bytes);
    p.receiving_ = receive_at(
        p.w_, p.r_, t, p.incoming_.operations.data(), p.incoming_.operations.size(), p.bytes_,
        p.comm_.world_of(p.incoming_.source, p.r_.id), kBatchTag, p.comm_.context, p.comm_);
    p.when_complete(p.receiving_, &PassiveTarget::batch_arrived);
  }

  static void batch_arrived(void* self) {
    auto& p = *static_cast<PassiveTarget*>(self);
    const SimTime t = p.take_receive();
    p.sweep_replies();
    if (p.grantable(p.incoming_.header.lock, false)) {
      p.serve(p.incoming_, t);
    } else {
      p.waiting_.push_back(std::move(p.incoming_));
    }
    p.incoming_ = Batch{};
    p.await_header(t);
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
  Batch incoming_;
  Request* receiving_ = nullptr;
  void (*step_)(void*) = nullptr;
  int exclusive_ = -1; ///< holder of the exclusive lock, or -1
  int shared_ = 0;     ///< holders of a shared lock
  std::deque<Batch> waiting_;
  std::deque<Reply> replies_; ///< a deque: the data of a reply stays put while it is sent
};

std::shared_ptr<PassiveTarget> serve_passive_target(World& w, Rank& r, Window& win) {
  auto p = std::make_shared<PassiveTarget>(w, r, win);
  p->await_header(r.clock);
  return p;
}

void stop_passive_target(PassiveTarget& p) {
  p.stop();
}

} // namespace mpilite
