#include "compound_request.hpp"

#include <algorithm>

#include "world.hpp"

namespace mpilite {

void CompoundRequest::part_done(Request&, void* self) {
  auto& c = *static_cast<CompoundRequest*>(self);
  // Never inside the matching of a part: parts_done may place data and free the parts.
  if (--c.pending_ == 0) c.w_->defer(&CompoundRequest::finish, &c, c.whole_->owner);
}

void CompoundRequest::finish(void* self) {
  auto& c = *static_cast<CompoundRequest*>(self);
  Request& q = *c.whole_;
  SimTime ready = q.post_time;
  for (const Request* part : c.parts_) {
    if (!part) continue;
    SimTime done = part->ready_time;
    if (part->kind == RequestKind::Recv) {
      q.status = part->status;
      q.message_bytes = part->message_bytes;
      q.busy += part->recv_overhead;
      done += part->recv_overhead;
    }
    ready = std::max(ready, done);
  }
  const SimTime extra = c.extra(q);
  q.busy += extra;
  ready += extra;
  c.parts_done(q, ready);
  for (Request*& part : c.parts_)
    if (part) {
      c.w_->free_request(part);
      part = nullptr;
    }
  World& w = *c.w_;
  Rank& owner = *q.owner;
  mark_complete(q, ready); // may free q, and this with it (MPI_Request_free)
  w.scheduler().wake(owner.task);
}

Request* start_compound(World& w, Rank& r, std::shared_ptr<CompoundRequest> c,
                        std::initializer_list<Request*> parts) {
  Request* q = w.new_request(r, RequestKind::Collective);
  q->post_time = r.clock;
  c->w_ = &w;
  c->whole_ = q;
  c->parts_.assign(parts.begin(), parts.end());
  // Held while the callbacks are set: a part may complete before the others are looked at.
  c->pending_ = 1;
  for (Request* part : c->parts_)
    if (part && !part->complete) {
      ++c->pending_;
      part->on_complete = &CompoundRequest::part_done;
      part->completion_context = c.get();
    }
  CompoundRequest& compound = *c;
  q->owned = std::move(c);
  CompoundRequest::part_done(*q, &compound);
  return q;
}

} // namespace mpilite
