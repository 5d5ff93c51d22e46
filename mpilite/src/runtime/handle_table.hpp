// Objects named by integer handles (MPICH's layout: kind bits above a 24-bit index).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <vector>

namespace mpilite {

/// Objects of one kind made by the program (groups, keyvals, error handlers, info objects):
/// handle = base | index, freed indices reused.
template <class T> class HandleTable {
public:
  explicit HandleTable(std::uint32_t base) : base_(base) {}

  /// The object of handle `h`, or null if `h` is not a live handle of this table.
  T* find(int h) {
    const std::uint32_t u = static_cast<std::uint32_t>(h);
    const std::uint32_t i = u & kIndexMask;
    if ((u & ~kIndexMask) != base_ || i >= slots_.size() || !slots_[i]) return nullptr;
    return &*slots_[i];
  }
  int add(T value) {
    std::uint32_t i;
    if (!free_.empty()) {
      i = free_.back();
      free_.pop_back();
    } else {
      i = static_cast<std::uint32_t>(slots_.size());
      if (i > kIndexMask) throw std::runtime_error("more than 16 million MPI objects of one kind");
      slots_.emplace_back();
    }
    slots_[i].emplace(std::move(value));
    return static_cast<int>(base_ | i);
  }
  void erase(int h) {
    const std::uint32_t i = static_cast<std::uint32_t>(h) & kIndexMask;
    slots_[i].reset();
    free_.push_back(i);
  }

private:
  static constexpr std::uint32_t kIndexMask = 0x00ffffff;
  std::uint32_t base_;
  std::deque<std::optional<T>> slots_; // deque: objects stay put while others are added
  std::vector<std::uint32_t> free_;
};

} // namespace mpilite
