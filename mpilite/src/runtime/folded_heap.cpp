#include "folded_heap.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

#include "fold_guard.hpp"

namespace mpilite {
namespace {

constexpr std::size_t kPage = 4096;
/// A site's memfd is at least this large: big enough that a sweep over a folded array is not
/// served from the CPU caches much more than the real array would be, small enough to cost
/// little per call site.
constexpr std::size_t kMinGranule = std::size_t{4} << 20;
/// A block is mapped in at most this many pieces, so that the process's memory mappings
/// (vm.max_map_count, 65 530 by default) last: larger blocks get a larger memfd.
constexpr std::size_t kMaxPieces = 16;
/// The arena is reserved (not committed) once; the largest of these sizes the kernel grants.
constexpr std::size_t kArenaSizes[] = {std::size_t{16} << 40, std::size_t{4} << 40,
                                       std::size_t{1} << 40, std::size_t{256} << 30,
                                       std::size_t{64} << 30};

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

/// Granule for a block of `length` bytes: a power of two >= kMinGranule, at most kMaxPieces
/// pieces per block.
std::size_t granule_for(std::size_t length) {
  std::size_t g = kMinGranule;
  while (g * kMaxPieces < length)
    g *= 2;
  return g;
}

struct Site {
  int fd = -1;
  std::size_t size = 0; ///< current size of the memfd
};

struct Block {
  std::size_t length = 0; ///< reserved bytes (page multiple)
  std::size_t bytes = 0;  ///< requested bytes
};

/// Everything is touched under `mutex`, except the arena bounds, which are set once.
/// The reserved arena, set once (both 0 before).
std::atomic<std::uintptr_t> g_arena_begin{0};
std::atomic<std::uintptr_t> g_arena_end{0};

struct Heap {
  std::mutex mutex;
  std::uintptr_t next = 0;                                ///< bump pointer
  std::uintptr_t end = 0;                                 ///< end of the arena
  std::multimap<std::size_t, std::uintptr_t> free_ranges; ///< length -> start
  std::map<std::uintptr_t, Block> blocks;
  std::unordered_map<std::uint64_t, Site> sites;
  FoldStats stats;
  std::uint64_t live_bytes = 0;
  std::uint64_t sampled_live_bytes = 0; ///< live_bytes at the last reading of the memory
  std::atomic<bool> used{false};
  std::atomic<long> peak_kib{-1};
};

Heap& heap() {
  // Never destroyed: free() may be called during exit, after static destructors.
  static Heap* h = new Heap;
  return *h;
}

void complain(const char* what, std::size_t bytes) {
  std::fprintf(stderr,
               "mpisim: cannot fold a block of %zu bytes: %s (%s). Each folded block takes up to "
               "%zu memory mappings and the kernel allows vm.max_map_count per process: fold fewer "
               "or larger blocks, or spread the ranks over more host processes (-hosts)\n",
               bytes, what, std::strerror(errno), kMaxPieces + 1);
}

bool reserve_arena(Heap& h) {
  if (g_arena_begin.load()) return true;
  for (std::size_t size : kArenaSizes) {
    void* p = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) continue;
    h.next = reinterpret_cast<std::uintptr_t>(p);
    h.end = h.next + size;
    g_arena_end.store(h.end);
    g_arena_begin.store(h.next);
    return true;
  }
  return false;
}

/// A free range of at least `length` bytes of the arena, or 0.
std::uintptr_t take_range(Heap& h, std::size_t length) {
  const auto it = h.free_ranges.lower_bound(length);
  if (it != h.free_ranges.end()) {
    const std::size_t have = it->first;
    const std::uintptr_t start = it->second;
    h.free_ranges.erase(it);
    if (have > length) h.free_ranges.emplace(have - length, start + length);
    return start;
  }
  if (h.end - h.next < length) return 0;
  const std::uintptr_t start = h.next;
  h.next += length;
  return start;
}

Site* site_of(Heap& h, std::uint64_t key, std::size_t granule) {
  Site& s = h.sites[key];
  if (s.fd < 0) {
    s.fd = memfd_create("mpisim-folded", MFD_CLOEXEC);
    if (s.fd < 0) return nullptr;
    ++h.stats.sites;
  }
  if (s.size < granule) {
    if (ftruncate(s.fd, static_cast<off_t>(granule)) != 0) return nullptr;
    h.stats.physical_bytes += granule - s.size;
    s.size = granule;
  }
  return &s;
}

/// Maps `s`'s memfd over [start, start + length) again and again.
bool map_pieces(const Site& s, std::uintptr_t start, std::size_t length, std::size_t granule) {
  for (std::size_t at = 0; at < length; at += granule) {
    const std::size_t piece = std::min(granule, length - at);
    void* want = reinterpret_cast<void*>(start + at);
    if (mmap(want, piece, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, s.fd, 0) == MAP_FAILED)
      return false;
  }
  return true;
}

/// Returns [start, start + length) to the reserved, uncommitted state (one mapping again).
void unmap_pieces(std::uintptr_t start, std::size_t length) {
  mmap(reinterpret_cast<void*>(start), length, PROT_NONE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

/// Reads "Key:   123 kB" from a /proc file into KiB, without allocating (free() calls this).
long proc_kib(const char* path, const char* key) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[8192];
  std::size_t have = 0;
  for (ssize_t n; have < sizeof buf - 1 && (n = read(fd, buf + have, sizeof buf - 1 - have)) > 0;)
    have += static_cast<std::size_t>(n);
  close(fd);
  buf[have] = '\0';
  const std::size_t key_len = std::strlen(key);
  for (const char* line = buf; *line;) {
    if (std::strncmp(line, key, key_len) == 0) return std::strtol(line + key_len, nullptr, 10);
    const char* nl = std::strchr(line, '\n');
    if (!nl) break;
    line = nl + 1;
  }
  return -1;
}

void note_peak(long kib) {
  auto& peak = heap().peak_kib;
  long seen = peak.load();
  while (kib > seen && !peak.compare_exchange_weak(seen, kib)) {
  }
}

} // namespace

void* fold_allocate(std::size_t bytes, std::uint64_t site) {
  FoldGuard guard; // the tables below allocate: those allocations are never folded
  Heap& h = heap();
  const std::size_t length = round_up(std::max<std::size_t>(bytes, 1), kPage);
  if (length < bytes) return nullptr; // overflow
  const std::size_t granule = std::min(granule_for(length), length);
  std::lock_guard lock(h.mutex);
  if (!reserve_arena(h)) {
    complain("no virtual address range can be reserved for folded blocks", bytes);
    return nullptr;
  }
  const std::uintptr_t start = take_range(h, length);
  if (!start) {
    errno = ENOMEM;
    complain("the folded arena is full", bytes);
    return nullptr;
  }
  const Site* s = site_of(h, site, granule);
  if (!s || !map_pieces(*s, start, length, granule)) {
    complain(s ? "mapping its pages failed" : "creating its memory file failed", bytes);
    unmap_pieces(start, length);
    h.free_ranges.emplace(length, start);
    return nullptr;
  }
  h.blocks.emplace(start, Block{length, bytes});
  ++h.stats.blocks;
  h.live_bytes += length;
  h.stats.peak_bytes = std::max(h.stats.peak_bytes, h.live_bytes);
  h.used.store(true);
  return reinterpret_cast<void*>(start);
}

MPISIM_MALLOC_PATH bool is_folded(const void* p) {
  // Globals, not the heap's (constructed on first use, by a malloc): free() asks this for every
  // block of the process, from the first one on.
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return a >= g_arena_begin.load(std::memory_order_relaxed) &&
         a < g_arena_end.load(std::memory_order_relaxed);
}

std::size_t folded_size(const void* p) {
  if (!is_folded(p)) return 0;
  FoldGuard guard;
  Heap& h = heap();
  std::lock_guard lock(h.mutex);
  const auto it = h.blocks.find(reinterpret_cast<std::uintptr_t>(p));
  return it == h.blocks.end() ? 0 : it->second.bytes;
}

bool fold_release(void* p) {
  if (!is_folded(p)) return false;
  FoldGuard guard;
  Heap& h = heap();
  bool sample = false;
  {
    std::lock_guard lock(h.mutex);
    sample = h.live_bytes > h.sampled_live_bytes;
    if (sample) h.sampled_live_bytes = h.live_bytes;
  }
  // The pages are about to go: a peak of folded memory is seen now. Reading the proportional
  // set size walks the page tables, so only when the folded blocks are at their largest since
  // the last reading (not at each of a thousand ranks' frees in a row).
  if (sample) note_peak(physical_memory_kib());
  std::lock_guard lock(h.mutex);
  const auto it = h.blocks.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == h.blocks.end()) return false;
  const std::uintptr_t start = it->first;
  const std::size_t length = it->second.length;
  h.blocks.erase(it);
  unmap_pieces(start, length);
  h.free_ranges.emplace(length, start);
  h.live_bytes -= length;
  return true;
}

FoldStats fold_stats() {
  FoldGuard guard;
  Heap& h = heap();
  std::lock_guard lock(h.mutex);
  return h.stats;
}

bool folding_used() {
  return heap().used.load();
}

long physical_memory_kib() {
  const long pss = proc_kib("/proc/self/smaps_rollup", "Pss:");
  const long pte = proc_kib("/proc/self/status", "VmPTE:");
  return pss < 0 ? -1 : pss + std::max(pte, 0L);
}

long sampled_peak_memory_kib() {
  note_peak(physical_memory_kib());
  return heap().peak_kib.load();
}

} // namespace mpilite
