// Entries the network models hold by index while a message is under way; freed slots are
// reused, so the indices stay small and a steady stream of messages allocates nothing.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace mpisim {

template <class T> class SlotPool {
public:
  /// Keeps `v` and returns its slot, valid until release().
  std::size_t store(const T& v) {
    const std::size_t slot = take();
    items_[slot] = v;
    return slot;
  }

  /// A slot of its own, holding a T{}, for the caller to fill in place (rather than on its
  /// stack, which is cold when a fiber that ran long ago plans a leg): its number in `slot`.
  T& fresh(std::size_t& slot) {
    const bool reused = !free_.empty();
    slot = take();
    T& item = items_[slot];
    if (!reused) return item;
    std::destroy_at(&item);
    return *std::construct_at(&item);
  }

  void release(std::size_t slot) {
    held_[slot] = false;
    free_.push_back(slot);
  }

  /// The entry in `slot`. A reference stays valid only until the next store().
  T& operator[](std::size_t slot) { return items_[slot]; }
  const T& operator[](std::size_t slot) const { return items_[slot]; }

  /// Calls f on every entry stored and not released.
  template <class F> void for_each(F&& f) const {
    for (std::size_t i = 0; i < items_.size(); ++i)
      if (held_[i]) f(items_[i]);
  }

private:
  /// A slot marked held: a free one, or a new one holding a T{}.
  std::size_t take() {
    if (free_.empty()) {
      items_.emplace_back();
      held_.push_back(true);
      return items_.size() - 1;
    }
    const std::size_t slot = free_.back();
    free_.pop_back();
    held_[slot] = true;
    return slot;
  }

  std::vector<T> items_;
  std::vector<bool> held_;
  std::vector<std::size_t> free_;
};

} // namespace mpisim
