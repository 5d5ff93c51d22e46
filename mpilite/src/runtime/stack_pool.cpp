#include "stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#if defined(MPISIM_ASAN)
#include <sanitizer/lsan_interface.h>
#endif

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102 // Linux 6.13; older headers lack it, older kernels say EINVAL
#endif

namespace mpilite {
namespace {

// The canary is the untouched bottom of the stack: fresh anonymous memory reads as zero, and
// reading it maps the shared zero page, so an intact canary costs no memory per rank.
constexpr std::uint64_t kCanary = 0;
constexpr std::size_t kCanaryWords = 8;
// Mappings left for the program, MPICH, libraries and the heap.
constexpr long kMappingReserve = 8192;
// An mprotect()ed page inside a mapping splits it: the page and the rest are mappings of their own.
constexpr long kMappingsPerGuard = 2;

long max_map_count() {
  std::ifstream in("/proc/sys/vm/max_map_count");
  long n = 65530;
  in >> n;
  return n;
}

std::size_t page_size() {
  return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

} // namespace

StackPool::StackPool(std::size_t count, std::size_t size, const StackPoolOptions& options) {
  const std::size_t page = page_size();
  size_ = round_up(size, page);
  guard_bytes_ = page;
  slot_bytes_ = size_ + guard_bytes_;
  install_guards(count, options);
}

void StackPool::install_guards(std::size_t count, const StackPoolOptions& options) {
  long budget =
      options.mapping_budget > 0 ? options.mapping_budget : max_map_count() - kMappingReserve;
  budget = std::max(budget, 64L);
  const std::size_t guards = static_cast<std::size_t>(budget / kMappingsPerGuard);
  // Decided before mapping so that every chunk starts with a guarded stack; revised to 1 below
  // if the kernel has guard regions, which cost no mapping.
  stacks_per_guard_ = std::max<std::size_t>(1, (count + guards - 1) / guards);
  // Chunks of at most 1 GiB keep single mmap calls reasonable at 100 000 ranks.
  const std::size_t fit = std::max<std::size_t>(1, (std::size_t{1} << 30) / slot_bytes_);
  per_chunk_ = std::max(stacks_per_guard_, fit / stacks_per_guard_ * stacks_per_guard_);
  for (std::size_t first = 0; first < count; first += per_chunk_) {
    const std::size_t n = std::min(per_chunk_, count - first);
    const std::size_t bytes = n * slot_bytes_;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error("cannot map " + std::to_string(bytes) +
                               " bytes of fiber stacks: " + std::strerror(errno) +
                               "; lower MPISIM_STACK or the number of ranks per host process");
    chunks_.push_back({static_cast<std::byte*>(p), bytes});
  }
  if (count == 0) return;
  kernel_guards_ =
      options.kernel_guard_regions && madvise(slot(0), guard_bytes_, MADV_GUARD_INSTALL) == 0;
  if (kernel_guards_) stacks_per_guard_ = 1;
  for (std::size_t i = 0; i < count; i += stacks_per_guard_) {
    const int rc = kernel_guards_ ? madvise(slot(i), guard_bytes_, MADV_GUARD_INSTALL)
                                  : mprotect(slot(i), guard_bytes_, PROT_NONE);
    if (rc != 0)
      throw std::runtime_error(std::string("cannot install a stack guard page: ") +
                               std::strerror(errno) +
                               "; lower the number of ranks per host process");
  }
}

StackPool::~StackPool() {
  for (const Chunk& c : chunks_)
    munmap(c.base, c.bytes);
}

void StackPool::keep_for_leak_check([[maybe_unused]] const std::vector<std::size_t>& indices) {
#if defined(MPISIM_ASAN)
  if (indices.empty()) return;
  // Each stack alone: kernel guard regions sit inside readable mappings and fault when scanned.
  for (std::size_t i : indices)
    __lsan_register_root_region(stack(i).bottom, size_);
  chunks_.clear();
#endif
}

std::string StackPool::describe() const {
  if (stacks_per_guard_ > 1)
    return "a guard page per " + std::to_string(stacks_per_guard_) +
           " stacks + canary + stack pointer";
  return kernel_guards_ ? "kernel guard pages" : "guard pages";
}

std::byte* StackPool::slot(std::size_t index) const {
  return chunks_[index / per_chunk_].base + (index % per_chunk_) * slot_bytes_;
}

Stack StackPool::stack(std::size_t index) const {
  return {slot(index) + guard_bytes_, size_};
}

bool StackPool::canary_intact(std::size_t index) const {
  if (stacks_per_guard_ == 1) return true;
  const auto* w = reinterpret_cast<const std::uint64_t*>(slot(index) + guard_bytes_);
  for (std::size_t k = 0; k < kCanaryWords; ++k)
    if (w[k] != kCanary) return false;
  return true;
}

long StackPool::stack_of_guard_address(const void* addr) const {
  const auto* a = static_cast<const std::byte*>(addr);
  for (std::size_t c = 0; c < chunks_.size(); ++c) {
    const Chunk& ch = chunks_[c];
    if (a < ch.base || a >= ch.base + ch.bytes) continue;
    const std::size_t offset = static_cast<std::size_t>(a - ch.base);
    const std::size_t index = c * per_chunk_ + offset / slot_bytes_;
    if (offset % slot_bytes_ < guard_bytes_ && guarded(index)) return static_cast<long>(index);
    return -1;
  }
  return -1;
}

bool StackPool::below_stack(std::size_t index, const void* addr) const {
  const auto* a = static_cast<const std::byte*>(addr);
  if (a >= stack(index).bottom) return false;
  return std::any_of(chunks_.begin(), chunks_.end(),
                     [a](const Chunk& ch) { return a >= ch.base && a < ch.base + ch.bytes; });
}

void StackPool::release(std::size_t index) {
  // Dropped pages read as zero again, which also restores the canary; guard regions stay.
  madvise(slot(index) + guard_bytes_, size_, MADV_DONTNEED);
}

} // namespace mpilite
