// The matching queues of one rank, indexed by (context, source) so that a receive that names
// its source, and a message arriving for one, costs the same whatever the queue lengths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "flat_index.hpp"
#include "message.hpp"
#include "mpi.h"
#include "request.hpp"

namespace mpilite {

/// Whether `q` (a receive or probe) matches the envelope of `m`.
inline bool envelope_matches(const Request& q, const Message& m) {
  return q.context == m.context && (q.source == MPI_ANY_SOURCE || q.source == m.src) &&
         (q.tag == MPI_ANY_TAG || q.tag == m.tag);
}

/// The key of the list of (context, source); source may be MPI_ANY_SOURCE.
inline std::uint64_t envelope_key(int context, int source) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(context)) << 32) |
         static_cast<std::uint32_t>(source);
}
inline int context_of_key(std::uint64_t key) {
  return static_cast<int>(static_cast<std::uint32_t>(key >> 32));
}

/// How many lists KeyedLists scans before it keeps a hash index: the index's slots are a block
/// of their own, one more cache miss per lookup where a rank's queues have gone cold (every
/// message at 100 000 ranks), while 32 lists are 12 adjacent lines that the prefetcher follows.
/// 32 covers a 26-neighbour halo and the log2 p partners a late rank of a recursive-doubling
/// collective hears from before it posts (with 8, allreduce + barrier at 100 000 ranks held
/// 50 MiB of indexes, docs/performance.md).
inline constexpr std::size_t kScannedLists = 32;

/// FIFO lists of T, one per key, linked through T's members Prev and Next. A list that empties
/// is dropped, so walking every list costs what is queued now, not what ever was.
template <class T, T* T::*Prev, T* T::*Next> class KeyedLists {
public:
  struct List {
    std::uint64_t key;
    T* head;
    T* tail;
  };

  void push_back(std::uint64_t key, T* x) {
    List* l = find(key);
    if (!l) {
      lists_.push_back(List{key, nullptr, nullptr});
      if (indexed())
        index_.insert(key, static_cast<std::uint32_t>(lists_.size() - 1));
      else if (lists_.size() > kScannedLists)
        build_index();
      l = &lists_.back();
    }
    x->*Prev = l->tail;
    x->*Next = nullptr;
    (l->tail ? l->tail->*Next : l->head) = x;
    l->tail = x;
  }

  /// Removes `x`, which is in the list of `key`.
  void erase(std::uint64_t key, T* x) {
    List& l = *find(key);
    T* prev = x->*Prev;
    T* next = x->*Next;
    (prev ? prev->*Next : l.head) = next;
    (next ? next->*Prev : l.tail) = prev;
    x->*Prev = x->*Next = nullptr;
    if (l.head) return;
    const auto at = static_cast<std::uint32_t>(&l - lists_.data());
    const bool indexed = this->indexed();
    if (indexed) index_.erase(key);
    if (at + 1 != lists_.size()) {
      lists_[at] = lists_.back();
      if (indexed) *index_.find(lists_[at].key) = at;
    }
    lists_.pop_back();
    // Dropped halfway down, not at the limit: a queue whose list count hovers there would
    // rebuild the index at every other message.
    if (indexed && lists_.size() <= kScannedLists / 2) index_.clear();
    // A late rank of a recursive-doubling collective hears from log2 p partners before it
    // posts: its lists grew to 32 (768 bytes) and would keep that block for the rest of the run
    // (32 MB at 100 000 ranks). Only blocks beyond a few lists go, so a queue that empties after
    // every exchange with its few neighbours does not allocate again each time.
    if (lists_.empty() && lists_.capacity() > kKeptLists) {
      std::destroy_at(&lists_);
      std::construct_at(&lists_);
    }
  }

  /// The first element of the list of `key` (null when empty); the rest follow through Next.
  T* front(std::uint64_t key) const {
    const List* l = find(key);
    return l ? l->head : nullptr;
  }

  /// The lists themselves, inline for the first: a message or receive reaching a rank whose
  /// queues have gone cold (every one at 1 000 ranks and more) then finds its list in the lines
  /// of the rank it reads anyway, instead of in a block of its own, one cache miss further.
  using Lists = boost::container::small_vector<List, 1>;

  /// Every non-empty list, in no particular order.
  const Lists& lists() const { return lists_; }

private:
  /// Holding keys exactly when it is kept, the index needs no flag of its own.
  bool indexed() const { return index_.size() != 0; }
  List* find(std::uint64_t key) {
    if (!indexed()) {
      for (List& l : lists_)
        if (l.key == key) return &l;
      return nullptr;
    }
    std::uint32_t* at = index_.find(key);
    return at ? &lists_[*at] : nullptr;
  }
  void build_index() {
    for (std::size_t i = 0; i < lists_.size(); ++i)
      index_.insert(lists_[i].key, static_cast<std::uint32_t>(i));
  }
  const List* find(std::uint64_t key) const { return const_cast<KeyedLists*>(this)->find(key); }

  static constexpr std::size_t kKeptLists = 4;

  FlatIndex index_; ///< key to position in lists_ while indexed()
  Lists lists_;
};

/// Arrived, unmatched messages: in arrival order, and per (context, source) in arrival order
/// (which is the sender's send order: MPI's non-overtaking rule).
class UnexpectedQueue {
public:
  using SourceLists = KeyedLists<Message, &Message::source_prev, &Message::source_next>;

  void push_back(Message* m) {
    all_.push_back(m);
    by_source_.push_back(envelope_key(m->context, m->src), m);
  }
  void erase(Message* m) {
    all_.erase(m);
    by_source_.erase(envelope_key(m->context, m->src), m);
  }
  /// The oldest message; the rest follow through Message::next.
  Message* front() const { return all_.front(); }
  bool empty() const { return all_.empty(); }
  /// The oldest message from world rank `source` on `context`; the rest through source_next.
  Message* first_from(int context, int source) const {
    return by_source_.front(envelope_key(context, source));
  }
  /// The messages of each (context, source) that has some.
  const SourceLists::Lists& sources() const { return by_source_.lists(); }

private:
  MessageQueue all_;
  SourceLists by_source_;
};

/// Unmatched receives (and probes) in post order, indexed by (context, source) with the
/// wildcards under (context, MPI_ANY_SOURCE). Matching only looks at the matchable ones: every
/// receive for which a matching message may be queued. A receive leaves that set only when
/// matching finds no message for it, and re-enters it when one arrives (wake_receivers), so a
/// receive with a matching message is always in it.
class PostedQueue {
public:
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Request*;
    using difference_type = std::ptrdiff_t;
    using pointer = Request* const*;
    using reference = Request* const&;

    iterator() = default;
    explicit iterator(Request* q) : q_(q) {}
    reference operator*() const { return q_; }
    iterator& operator++() {
      q_ = q_->posted_next;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator&) const = default;

  private:
    Request* q_ = nullptr;
  };

  /// In post order.
  iterator begin() const { return iterator(head_); }
  iterator end() const { return iterator(); }
  bool empty() const { return head_ == nullptr; }

  /// Posts `q` (last in post order) and makes it matchable.
  void push_back(Request* q);
  /// Removes `q`, which is posted.
  void erase(Request* q);

  /// Makes every posted receive that matches the envelope of `m` matchable.
  void wake_receivers(const Message& m);
  /// The first receive posted for `source` (a world rank, or MPI_ANY_SOURCE) on `context`; the
  /// others follow in post order by Request::source_next.
  Request* first_from(int context, int source) const {
    return by_source_.front(envelope_key(context, source));
  }

  /// The matchable receives, in post order.
  std::size_t matchable_count() const { return matchable_.size(); }
  Request* matchable(std::size_t i) const { return matchable_[i]; }
  /// Takes the i-th matchable receive out of the set (it stays posted).
  void drop_matchable(std::size_t i);
  /// Takes `q`, which is matchable, out of the set (it stays posted).
  void drop_from_matchable(Request* q);

private:
  using SourceLists = KeyedLists<Request, &Request::source_prev, &Request::source_next>;

  void make_matchable(Request* q);
  /// Where `q`, which is matchable, is in matchable_ (sorted by post_seq): a rank waiting for
  /// thousands of receives at once drops them one by one.
  std::size_t matchable_index(const Request* q) const;

  Request* head_ = nullptr;
  Request* tail_ = nullptr;
  std::uint64_t next_post_seq_ = 0;
  SourceLists by_source_;
  /// Sorted by post_seq; inline for the usual one or two, as the lists are.
  boost::container::small_vector<Request*, 2> matchable_;
};

} // namespace mpilite
