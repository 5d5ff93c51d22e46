#include "stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace mpilite {
namespace {

// The canary is the untouched bottom of the stack: fresh anonymous memory reads as zero, and
// reading it maps the shared zero page, so an intact canary costs no memory per rank.
constexpr std::uint64_t kCanary = 0;
constexpr std::size_t kCanaryWords = 8;
// Mappings left for the program, MPICH, libraries and the heap.
constexpr long kMappingReserve = 8192;

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

StackPool::StackPool(std::size_t count, std::size_t size) {
  const std::size_t page = page_size();
  size_ = round_up(size, page);
  const bool guards = static_cast<long>(2 * count) + kMappingReserve < max_map_count();
  check_ = guards ? OverflowCheck::GuardPage : OverflowCheck::Canary;
  guard_bytes_ = guards ? page : 0;
  slot_bytes_ = size_ + guard_bytes_;
  // Chunks of at most 1 GiB keep single mmap calls reasonable at 100 000 ranks.
  per_chunk_ = std::max<std::size_t>(1, (std::size_t{1} << 30) / slot_bytes_);
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
    for (std::size_t i = 0; i < n; ++i) {
      std::byte* s = static_cast<std::byte*>(p) + i * slot_bytes_;
      if (guards && mprotect(s, guard_bytes_, PROT_NONE) != 0)
        throw std::runtime_error(std::string("cannot protect a stack guard page: ") +
                                 std::strerror(errno));
    }
  }
}

StackPool::~StackPool() {
  for (const Chunk& c : chunks_)
    munmap(c.base, c.bytes);
}

std::byte* StackPool::slot(std::size_t index) const {
  return chunks_[index / per_chunk_].base + (index % per_chunk_) * slot_bytes_;
}

Stack StackPool::stack(std::size_t index) const {
  return {slot(index) + guard_bytes_, size_};
}

bool StackPool::canary_intact(std::size_t index) const {
  if (check_ != OverflowCheck::Canary) return true;
  const auto* w = reinterpret_cast<const std::uint64_t*>(slot(index));
  for (std::size_t k = 0; k < kCanaryWords; ++k)
    if (w[k] != kCanary) return false;
  return true;
}

long StackPool::stack_of_guard_address(const void* addr) const {
  if (check_ != OverflowCheck::GuardPage) return -1;
  const auto* a = static_cast<const std::byte*>(addr);
  for (std::size_t c = 0; c < chunks_.size(); ++c) {
    const Chunk& ch = chunks_[c];
    if (a < ch.base || a >= ch.base + ch.bytes) continue;
    const std::size_t offset = static_cast<std::size_t>(a - ch.base);
    if (offset % slot_bytes_ < guard_bytes_)
      return static_cast<long>(c * per_chunk_ + offset / slot_bytes_);
    return -1;
  }
  return -1;
}

void StackPool::release(std::size_t index) {
  // Dropped pages read as zero again, which also restores the canary.
  madvise(slot(index) + guard_bytes_, size_, MADV_DONTNEED);
}

} // namespace mpilite
