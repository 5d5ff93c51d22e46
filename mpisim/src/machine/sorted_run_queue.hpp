// A min-priority queue for keys that mostly come in order. The NIC model's queues are pushed
// nearly in the order they are popped (on a fully connected network every leg injected reaches
// its receiver a constant time after its injection starts, so the delivery queue of NPB CG saw
// 1 394 686 of 1 394 686 pushes in order), yet a binary heap pays a sift of log n levels at
// every pop: with about 770 legs waiting at 1 024 ranks, that was the largest single cost of a
// message. Here a push no smaller than the last in-order key goes to the back of a FIFO run,
// any other to a heap, and the smaller of the two fronts comes out: the same order as one heap,
// in O(1) per key of the run.
#pragma once

#include <cstddef>
#include <functional>
#include <queue>
#include <vector>

namespace mpisim {

/// Pops keys smallest first, as std::priority_queue<T, std::vector<T>, std::greater<>> does.
/// T needs operator>; keys that compare equal may come out in either order.
template <class T> class SortedRunQueue {
public:
  bool empty() const { return live_ == 0 && heap_.empty(); }
  std::size_t size() const { return live_ + heap_.size(); }

  void push(const T& v) {
    // Only a key that starts the run again or goes to the heap can become the top.
    if (live_ == 0) {
      run_.clear();
      head_ = 0;
      run_.push_back(v);
      live_ = 1;
      if (heap_.empty() || !(v > heap_.top())) set_top(v, true);
    } else if (!(run_.back() > v)) {
      run_.push_back(v);
      ++live_;
    } else {
      heap_.push(v);
      if (top_ > v) set_top(v, false);
    }
  }

  /// The smallest key. Not empty().
  const T& top() const { return top_; }

  /// Removes top(). Not empty().
  void pop() {
    if (!top_in_run_) {
      pop_heap();
      return;
    }
    ++head_;
    --live_;
    // The popped part of the run is reclaimed once it is the larger half.
    if (head_ > live_ && head_ >= 64) {
      run_.erase(run_.begin(), run_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    find_top();
  }

private:
  // Out of line: its registers would otherwise be saved and restored on every pop of the run.
  [[gnu::noinline]] void pop_heap() {
    heap_.pop();
    find_top();
  }
  // Once per change rather than at every top(): the NIC model reads the top several times for
  // each leg it decides.
  void find_top() {
    if (live_ != 0 && (heap_.empty() || !(run_[head_] > heap_.top())))
      set_top(run_[head_], true);
    else if (!heap_.empty())
      set_top(heap_.top(), false);
  }
  void set_top(const T& v, bool in_run) {
    top_ = v;
    top_in_run_ = in_run;
  }

  std::vector<T> run_; ///< in order from head_
  std::size_t head_ = 0;
  std::size_t live_ = 0; ///< keys in the run from head_ (kept: the vector's size divides by 24)
  bool top_in_run_ = false;
  T top_{}; ///< a copy: top() is read more often than the queue changes
  std::priority_queue<T, std::vector<T>, std::greater<>> heap_;
};

} // namespace mpisim
