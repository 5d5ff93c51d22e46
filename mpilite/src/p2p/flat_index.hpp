// Open-addressing hash map from 64-bit keys to 32-bit values (linear probing, backward-shift
// deletion). Inserting and erasing allocate nothing once the table has grown to the peak number
// of keys, so the matching queues that use it cost no allocation per message.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace mpilite {

class FlatIndex {
public:
  /// The value of `key`, or null. Valid until the next insert or erase.
  std::uint32_t* find(std::uint64_t key) {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(key);; i = next(i)) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  const std::uint32_t* find(std::uint64_t key) const {
    return const_cast<FlatIndex*>(this)->find(key);
  }

  /// Adds `key`, which must not be present.
  void insert(std::uint64_t key, std::uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    place(key, value);
    ++size_;
  }

  /// Removes `key`, which must be present. Shifting the rest of its probe chain back keeps
  /// every chain unbroken without tombstones, so lookups never slow down with churn.
  void erase(std::uint64_t key) {
    std::size_t hole = home(key);
    while (!(slots_[hole].used && slots_[hole].key == key))
      hole = next(hole);
    for (std::size_t j = next(hole); slots_[j].used; j = next(j)) {
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      if (((j - home(slots_[j].key)) & mask()) >= ((j - hole) & mask())) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].used = false;
    --size_;
  }

  /// Removes every key, keeping the slots.
  void clear() {
    for (Slot& s : slots_)
      s.used = false;
    size_ = 0;
  }

  std::size_t size() const { return size_; }
  /// Slots allocated (twice the peak number of keys, rounded up to a power of two).
  std::size_t capacity() const { return slots_.size(); }

private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t value = 0;
    bool used = false;
  };

  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t next(std::size_t i) const { return (i + 1) & mask(); }
  std::size_t home(std::uint64_t key) const {
    // splitmix64's finalizer: keys are (context, rank) pairs, far from uniformly spread.
    key ^= key >> 30;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 27;
    key *= 0x94d049bb133111ebULL;
    key ^= key >> 31;
    return static_cast<std::size_t>(key) & mask();
  }
  void place(std::uint64_t key, std::uint32_t value) {
    std::size_t i = home(key);
    while (slots_[i].used)
      i = next(i);
    slots_[i] = {key, value, true};
  }
  void grow() {
    std::vector<Slot> old = std::exchange(slots_, {});
    // Most ranks hear from one or two (context, source) pairs at a time, and each rank has two
    // tables: starting at two slots instead of 16 saves 450 bytes per rank.
    slots_.resize(std::max<std::size_t>(2, 2 * old.size()));
    for (const Slot& s : old)
      if (s.used) place(s.key, s.value);
  }

  std::vector<Slot> slots_; ///< size is zero or a power of two, at most half full
  std::size_t size_ = 0;
};

} // namespace mpilite
