#include "match_queues.hpp"

#include <algorithm>

namespace mpilite {
namespace {

std::uint64_t list_key(const Request& q) {
  return envelope_key(q.context, q.source);
}

} // namespace

void PostedQueue::push_back(Request* q) {
  q->post_seq = next_post_seq_++;
  q->posted_prev = tail_;
  q->posted_next = nullptr;
  (tail_ ? tail_->posted_next : head_) = q;
  tail_ = q;
  by_source_.push_back(list_key(*q), q);
  // The newest receive sorts last.
  q->matchable = true;
  matchable_.push_back(q);
}

void PostedQueue::erase(Request* q) {
  (q->posted_prev ? q->posted_prev->posted_next : head_) = q->posted_next;
  (q->posted_next ? q->posted_next->posted_prev : tail_) = q->posted_prev;
  q->posted_prev = q->posted_next = nullptr;
  by_source_.erase(list_key(*q), q);
  if (q->matchable) drop_matchable(matchable_index(q));
}

std::size_t PostedQueue::matchable_index(const Request* q) const {
  const auto at = std::lower_bound(
      matchable_.begin(), matchable_.end(), q->post_seq,
      [](const Request* other, std::uint64_t seq) { return other->post_seq < seq; });
  return static_cast<std::size_t>(at - matchable_.begin());
}

void PostedQueue::drop_from_matchable(Request* q) {
  drop_matchable(matchable_index(q));
}

void PostedQueue::make_matchable(Request* q) {
  if (q->matchable) return;
  q->matchable = true;
  const auto at = std::upper_bound(
      matchable_.begin(), matchable_.end(), q->post_seq,
      [](std::uint64_t seq, const Request* other) { return seq < other->post_seq; });
  matchable_.insert(at, q);
}

void PostedQueue::wake_receivers(const Message& m) {
  for (int source : {m.src, MPI_ANY_SOURCE})
    for (Request* q = by_source_.front(envelope_key(m.context, source)); q; q = q->source_next)
      if (!q->matchable && envelope_matches(*q, m)) make_matchable(q);
}

void PostedQueue::drop_matchable(std::size_t i) {
  matchable_[i]->matchable = false;
  matchable_.erase(matchable_.begin() + static_cast<std::ptrdiff_t>(i));
}

} // namespace mpilite
