// madvise() over many ranges at once: one system call per batch instead of one per range.
#pragma once

#include <array>
#include <cstddef>

#include <sys/mman.h>
#include <sys/uio.h>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102 // Linux 6.13; older headers lack it, older kernels say EINVAL
#endif
#ifndef MADV_GUARD_REMOVE
#define MADV_GUARD_REMOVE 103
#endif

namespace mpilite {

/// Ranges waiting for one piece of advice (MADV_DONTNEED, MADV_GUARD_INSTALL, ...), given in
/// batches through process_madvise() on this process (Linux 6.13 accepts any advice for the
/// calling process) and range by range through madvise() where the kernel refuses it.
class BatchedAdvice {
public:
  explicit BatchedAdvice(int advice) : advice_(advice) {}
  BatchedAdvice(const BatchedAdvice&) = delete;
  BatchedAdvice& operator=(const BatchedAdvice&) = delete;
  /// Gives what is pending; no error is raised there, so call flush() where one matters.
  ~BatchedAdvice();

  /// Queues [addr, addr + bytes); the batch is given when it is full. Returns what flush()
  /// returned then, else 0.
  int add(void* addr, std::size_t bytes) {
    pending_[count_++] = {addr, bytes};
    return count_ == kBatch ? flush() : 0;
  }
  /// Gives the pending ranges now. Returns 0, or the errno of the first range refused.
  int flush();
  /// Forgets the pending ranges (their memory is about to be unmapped anyway).
  void drop() { count_ = 0; }

  /// IOV_MAX: the most ranges one process_madvise() call takes.
  static constexpr std::size_t kBatch = 1024;

private:
  int advice_;
  // Inline, not on the heap: giving advice allocates nothing (nor maps, under a sanitizer's
  // allocator), so a pool of stacks costs no mapping beyond its chunks.
  std::array<iovec, kBatch> pending_;
  std::size_t count_ = 0;
};

} // namespace mpilite
