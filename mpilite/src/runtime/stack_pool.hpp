// Fiber stacks carved from large pooled mappings, with overflow detection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mpilite {

/// How a stack overflow is detected. Guard pages cost two memory mappings per stack
/// (vm.max_map_count limits a process to ~65 530), so large rank counts use a canary instead.
enum class OverflowCheck { GuardPage, Canary };

/// One fiber stack: [bottom, bottom + size) is usable, growing down from bottom + size.
struct Stack {
  std::byte* bottom = nullptr;
  std::size_t size = 0;
};

class StackPool {
public:
  /// `count` stacks of `size` bytes (rounded up to pages). Chooses GuardPage when the mappings it
  /// needs stay well below vm.max_map_count, Canary otherwise.
  StackPool(std::size_t count, std::size_t size);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  Stack stack(std::size_t index) const;
  std::size_t stack_size() const { return size_; }
  OverflowCheck check() const { return check_; }

  /// Canary mode: true while the canary at the bottom of stack `index` is intact.
  bool canary_intact(std::size_t index) const;
  /// Guard mode: the stack whose guard page contains `addr`, or -1.
  long stack_of_guard_address(const void* addr) const;
  /// Returns the pages of stack `index` to the kernel (the rank has finished).
  void release(std::size_t index);

private:
  struct Chunk {
    std::byte* base;
    std::size_t bytes;
  };
  std::byte* slot(std::size_t index) const;

  std::size_t size_;
  std::size_t slot_bytes_;
  std::size_t guard_bytes_;
  std::size_t per_chunk_;
  OverflowCheck check_;
  std::vector<Chunk> chunks_;
};

} // namespace mpilite
