// Fiber stacks carved from large pooled mappings, with overflow detection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mpilite {

/// How a stack overflow is detected.
enum class OverflowCheck {
  /// A guard page below every stack: the first access past the bottom faults. Kernel guard
  /// regions (Linux 6.13, MADV_GUARD_INSTALL) cost no memory mapping; without them each
  /// mprotect()ed page costs two, and vm.max_map_count (~65 530) limits how many there can be.
  GuardPage,
  /// Past that limit: a guard page below every block of `stacks_per_guard()` stacks, so an
  /// overflow runs through at most a block before it faults (memory stays bounded), and a
  /// canary plus a stack-pointer check at every switch for overflows that stay within a block.
  GuardPerBlock,
};

/// One fiber stack: [bottom, bottom + size) is usable, growing down from bottom + size.
struct Stack {
  std::byte* bottom = nullptr;
  std::size_t size = 0;
};

struct StackPoolOptions {
  /// Use kernel guard regions when the kernel has them (tests turn this off to exercise the
  /// mprotect() fallback on any kernel).
  bool kernel_guard_regions = true;
  /// Memory mappings the pool may use for guard pages; 0: vm.max_map_count minus a reserve
  /// for the program, MPICH and the libraries.
  long mapping_budget = 0;
};

class StackPool {
public:
  /// `count` stacks of `size` bytes (rounded up to pages).
  StackPool(std::size_t count, std::size_t size, const StackPoolOptions& options = {});
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  Stack stack(std::size_t index) const;
  std::size_t stack_size() const { return size_; }
  OverflowCheck check() const {
    return stacks_per_guard_ == 1 ? OverflowCheck::GuardPage : OverflowCheck::GuardPerBlock;
  }
  std::size_t stacks_per_guard() const { return stacks_per_guard_; }
  /// For the report: "guard pages", "kernel guard pages" or
  /// "a guard page per 4 stacks + canary + stack pointer".
  std::string describe() const;

  /// Keeps the stacks of `indices` mapped past the pool's end and tells LeakSanitizer to scan
  /// them: a run that ends early abandons fibers mid-call, and what their frames still hold is
  /// abandoned with them, not leaked. No effect outside sanitized builds.
  void keep_for_leak_check(const std::vector<std::size_t>& indices);

  /// True while the canary at the bottom of stack `index` is intact (always in GuardPage mode).
  bool canary_intact(std::size_t index) const;
  /// The stack whose (protected) guard page contains `addr`, or -1.
  long stack_of_guard_address(const void* addr) const;
  /// True if `addr` lies in the pool's memory below the usable part of stack `index`: a stack
  /// pointer there has overflowed.
  bool below_stack(std::size_t index, const void* addr) const;
  /// Returns the pages of stack `index` to the kernel (the rank has finished).
  void release(std::size_t index);

private:
  struct Chunk {
    std::byte* base;
    std::size_t bytes;
  };
  std::byte* slot(std::size_t index) const;
  bool guarded(std::size_t index) const { return index % stacks_per_guard_ == 0; }
  void install_guards(std::size_t count, const StackPoolOptions& options);

  std::size_t size_;
  std::size_t slot_bytes_;
  std::size_t guard_bytes_;
  std::size_t per_chunk_;
  std::size_t stacks_per_guard_ = 1;
  bool kernel_guards_ = false;
  std::vector<Chunk> chunks_;
};

} // namespace mpilite
