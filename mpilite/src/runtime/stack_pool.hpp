// Fiber stacks carved from large pooled mappings, with overflow detection.
#pragma once

#include <cstddef>
#include <cstdint>

#include <string>
#include <sys/mman.h>
#include <vector>

#include "batched_advice.hpp"

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
  /// Stack copying: a fiber's stack is copied out to the heap while it is switched out (see
  /// StackPool::park). Needs kernel guard regions; the constructor throws without them.
  bool copy_stacks = false;
  /// Bytes at the top of every slot that are not stack but the caller's (reserved()): World
  /// keeps a rank's state there, on the page its fiber's first frames touch anyway, instead of
  /// a kilobyte of heap per rank. At most a page, added to each slot so that the stack keeps its
  /// size; kept when the stack is released; not with copy_stacks, which turns a parked stack's
  /// pages into guard regions.
  std::size_t top_reserve = 0;
  /// Stack copying: how many switched-out stacks wait before they are copied out together
  /// (StackPool::park). 1 parks each at once; at most 1 024, what one system call takes.
  std::size_t park_batch = 1024;
  /// Stack copying into shared slots: with copy_stacks, only this many stacks are mapped and
  /// fiber `i` runs on slot `i % shared_slots`, whose pages stay resident. Before a fiber runs,
  /// the slot's previous fiber (switched out) is copied out to the heap and the fiber's own copy
  /// put back: no system call and no page given back or taken, unlike parking with guard
  /// regions. Another fiber reaches a switched-out fiber's buffers only through reach(), which
  /// must name their owner, as the address alone no longer does. 0: every fiber its own stack.
  std::size_t shared_slots = 0;
};

/// A fiber's stack while copying is on. Parked: the used part, [top - bytes, top), lives in
/// `copy`, and the pages it occupied hold kernel guard markers instead of memory. Leaving: its
/// fiber is switched out and the stack waits, still in place, for its batch to be parked.
struct ParkedStack {
  enum class State : std::uint8_t { InPlace, Leaving, Parked };
  std::byte* copy = nullptr;
  std::uint32_t capacity = 0;
  std::uint32_t bytes = 0;
  State state = State::InPlace;
  bool trimmed = false; ///< the pages below the used part were given back once, after it ran
};

/// Whether this kernel has guard regions (MADV_GUARD_INSTALL, Linux 6.13), which stack copying
/// needs; tried once on a page of its own.
bool kernel_has_guard_regions();

class StackPool {
public:
  /// `count` stacks of `size` bytes (rounded up to pages).
  StackPool(std::size_t count, std::size_t size, const StackPoolOptions& options = {});
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  /// The usable stack of slot `index`: below its top reserve.
  Stack stack(std::size_t index) const;
  /// The size asked for, rounded up to pages: every usable stack has at least this.
  std::size_t stack_size() const { return asked_; }
  /// The top reserve of slot `index` (StackPoolOptions::top_reserve bytes, 64-byte aligned).
  void* reserved(std::size_t index) const { return slot(index) + guard_bytes_ + size_ - reserve_; }
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
  bool canary_intact(std::size_t index) const {
    return stacks_per_guard_ == 1 || canary_intact(stack(index));
  }
  /// True while the bottom of `stack` is untouched: fresh anonymous memory reads as zero, and
  /// reading it maps the shared zero page, so an intact canary costs no memory per rank.
  static bool canary_intact(const Stack& stack) {
    const auto* w = reinterpret_cast<const std::uint64_t*>(stack.bottom);
    std::uint64_t any = 0;
    for (std::size_t k = 0; k < kCanaryWords; ++k)
      any |= w[k];
    return any == 0;
  }
  /// The stack whose (protected) guard page contains `addr`, or -1.
  long stack_of_guard_address(const void* addr) const;
  /// True if `addr` lies in the pool's memory below the usable part of stack `index`: a stack
  /// pointer there has overflowed.
  bool below_stack(std::size_t index, const void* addr) const;
  /// Returns the pages of stack `index` to the kernel (the rank has finished), all but the page
  /// of its top reserve, in batches: a finished stack holds what it held while its rank was
  /// blocked, so waiting for a batch never raises the peak, and the stacks still waiting when the
  /// pool goes are unmapped with it.
  void release(std::size_t index);

  /// Whether stacks are copied out while their fibers are switched out.
  bool copies_stacks() const { return !parked_.empty(); }
  /// Stack copying: stack `index`, whose fiber was switched out with its stack pointer at `sp`,
  /// is to be parked: its used part, from `sp` to the top, copied to the heap and its pages
  /// turned into guard regions, which hold no memory. Any access to them faults, and the fault
  /// handler brings the stack back (unpark_at): so another fiber may still read or write the
  /// buffers a parked fiber handed to MPI, at their own addresses. Stacks are parked in batches
  /// of StackPoolOptions::park_batch, one system call for all: until then the stack stays in
  /// place (and is copied when its batch goes, with whatever was written into it meanwhile), and
  /// a fiber that runs again before that costs nothing. Call when no code runs on the stack.
  void park(std::size_t index, const void* sp);
  /// Brings stack `index` back if it is parked; call before its fiber runs again, from a stack
  /// other than its slot's when slots are shared (same_slot()).
  void unpark(std::size_t index) {
    if (parked_.empty()) return;
    if (shared_) {
      claim(index);
      return;
    }
    ParkedStack& p = parked_[index];
    if (p.state == ParkedStack::State::Parked)
      bring_back(index);
    else
      p.state = ParkedStack::State::InPlace; // its batch passes it by
  }
  /// Parks the stacks waiting for their batch now.
  void park_leaving();
  /// From the SIGSEGV handler: if `addr` is in a parked stack, brings it back and returns true
  /// (the faulting access can then be retried). Async-signal-safe.
  bool unpark_at(const void* addr);
  /// Where another fiber's code reaches the bytes `base + k`, k in [lo, hi), now: in a parked
  /// stack's copy when they all lie in its used part, else at `base` (a stack parked there is
  /// brought back first). A blocked rank's receive buffer is written in its copy this way, so
  /// that a collective that delivers to every rank before any runs does not bring every stack
  /// back at once. The copy is the image of [low, top), so offsets within it keep their meaning.
  void* reach(void* base, std::ptrdiff_t lo, std::ptrdiff_t hi);
  /// The same, for bytes of the fiber `owner` (its stack's index): with shared slots the
  /// address lies in the slot of many fibers, and only the owner says whose they are.
  void* reach(std::size_t owner, void* base, std::ptrdiff_t lo, std::ptrdiff_t hi) {
    return shared_ ? reach_shared(owner, base, lo, hi) : reach(base, lo, hi);
  }
  /// Whether fibers share stacks (StackPoolOptions::shared_slots).
  bool shares_stacks() const { return shared_; }
  /// Whether stacks are shared (StackPoolOptions::shared_slots) and `addr` lies in one of them.
  bool on_shared_stack(const void* addr) const {
    bool in_guard = false;
    return shared_ && slot_of(addr, in_guard) >= 0;
  }
  /// Whether fibers `a` and `b` run on one slot (only with shared slots, for a != b).
  bool same_slot(std::size_t a, std::size_t b) const {
    return shared_ && a != b && a % slots_ == b % slots_;
  }
  /// Fault-handler bring-backs so far (a parked stack reached by code that does not use reach()).
  std::size_t faults() const { return faults_; }
  /// Bytes the parked stacks' copies hold on the heap.
  std::size_t parked_bytes() const;

private:
  static constexpr std::size_t kCanaryWords = 8;
  struct Chunk {
    std::byte* base;
    std::size_t bytes;
  };
  std::byte* slot(std::size_t index) const;
  /// The slot `addr` lies in, or -1; `in_guard`: in its guard page rather than its stack.
  long slot_of(const void* addr, bool& in_guard) const;
  /// The parked stack whose slot (not its guard page) `addr` lies in, or -1. Async-signal-safe.
  long parked_at(const void* addr) const;
  /// Copies the used part of `p`, from `low` to its stack's top, to the heap.
  void copy_out(ParkedStack& p, const std::byte* low);
  void bring_back(std::size_t index);
  /// Shared slots: makes fiber `index` its slot's occupant, copying the previous one out.
  void claim(std::size_t index);
  void* reach_shared(std::size_t owner, void* base, std::ptrdiff_t lo, std::ptrdiff_t hi);
  /// The slot of fiber `index`.
  std::size_t home(std::size_t index) const { return shared_ ? index % slots_ : index; }
  void enable_copying(std::size_t count, std::size_t batch);
  bool guarded(std::size_t index) const { return index % stacks_per_guard_ == 0; }
  void install_guards(std::size_t count, const StackPoolOptions& options);

  std::size_t asked_; ///< stack_size()
  std::size_t size_;  ///< a slot above its guard: the stack and its top reserve
  std::size_t reserve_ = 0;
  std::size_t slot_bytes_;
  std::size_t guard_bytes_;
  std::size_t per_chunk_;
  std::size_t stacks_per_guard_ = 1;
  bool kernel_guards_ = false;
  std::vector<Chunk> chunks_;
  std::vector<std::uint32_t> by_address_; ///< chunks_'s indices by base address (slot_of)
  std::vector<ParkedStack> parked_;       ///< per stack when copying is on, else empty
  bool shared_ = false;                   ///< StackPoolOptions::shared_slots > 0
  std::size_t slots_ = 0;                 ///< stacks mapped
  std::vector<long> occupant_;            ///< shared slots: the fiber in place in each, or -1
  /// Stacks switched out since the last batch (some may have run again since: InPlace).
  std::vector<std::uint32_t> leaving_;
  std::size_t park_batch_ = 1024;
  std::size_t faults_ = 0;
  BatchedAdvice releases_{MADV_DONTNEED};
  BatchedAdvice guards_{MADV_GUARD_INSTALL};
  BatchedAdvice trims_{MADV_DONTNEED};
};

} // namespace mpilite
