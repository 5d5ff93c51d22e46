// Entries the network models hold by index while a message is under way; freed slots are
// reused, so the indices stay small and a steady stream of messages allocates nothing.
#pragma once

#include <cstddef>
#include <vector>

namespace mpisim {

template <class T> class SlotPool {
public:
  /// Keeps `v` and returns its slot, valid until release().
  std::size_t store(const T& v) {
    if (free_.empty()) {
      items_.push_back(v);
      held_.push_back(true);
      return items_.size() - 1;
    }
    const std::size_t slot = free_.back();
    free_.pop_back();
    items_[slot] = v;
    held_[slot] = true;
    return slot;
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
  std::vector<T> items_;
  std::vector<bool> held_;
  std::vector<std::size_t> free_;
};

} // namespace mpisim
