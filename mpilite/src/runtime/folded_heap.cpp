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
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fold_guard.hpp"

namespace mpilite {
namespace {

constexpr std::size_t kPage = 4096;
/// A site's memfd (its ring of pages) is at least this large. Its slots are laid out one after
/// another around it: successive slots get pages of their own until the ring wraps, as the same
/// array of successive ranks would. Larger than the last-level cache one
/// core sees on current servers (32-64 MiB), so that a sweep over a folded array misses the caches
/// as the real array does (a smaller ring makes folded sweeps run from cache and their sampled
/// cost too low). Its pages cost memory only once touched.
constexpr std::size_t kMinRing = std::size_t{128} << 20;
/// The blocks of one site and length take turns over at most this much virtual memory (and at
/// least one slot). Below it every rank's block has an address of its own, so each rank pays its
/// own first touches (page faults) as its real array would; above it, page tables would grow
/// with the rank count, and on a virtual machine whose hypervisor shadows the page tables a
/// sweep then costs a hypervisor exit per page (measured here: 20x slower sweeps beyond a few
/// GiB mapped).
constexpr std::size_t kSlotSpan = std::size_t{512} << 20;
/// A block is mapped in at most kMaxPieces + 2 pieces, so that the process's memory mappings
/// (vm.max_map_count, 65 530 by default) last: larger blocks get a larger memfd.
constexpr std::size_t kMaxPieces = 16;
/// The arena is reserved (not committed) once; the largest of these sizes the kernel grants.
constexpr std::size_t kArenaSizes[] = {std::size_t{16} << 40, std::size_t{4} << 40,
                                       std::size_t{1} << 40, std::size_t{256} << 30,
                                       std::size_t{64} << 30};

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

/// Ring for a block of `length` bytes: a power of two >= kMinRing, at most kMaxPieces whole
/// rings per block.
std::size_t ring_for(std::size_t length) {
  std::size_t g = kMinRing;
  while (g * kMaxPieces < length)
    g *= 2;
  return g;
}

struct Site {
  int fd = -1;
  std::size_t size = 0; ///< current size of the memfd (the ring)
  std::size_t next = 0; ///< offset in the memfd where the site's next slot starts
};

/// A range of the arena mapped onto a site's ring. Ranks share slots: the blocks of all ranks
/// allocated at one site with one length take turns over at most kSlotSpan / length slots, so
/// that the virtual memory in use (and its page tables) does not grow with the rank count. A slot
/// is never handed twice to the same holder, so the live blocks of one rank are distinct.
struct Slot {
  std::size_t length = 0; ///< reserved bytes (page multiple)
  bool pooled = false;    ///< one of its site's turns (kept when unused), or an extra one
  std::set<int> holders;  ///< who holds a live block here (none: unused)
};

/// The slots of one site for one block length, and whose turn is next.
struct Turns {
  std::vector<std::uintptr_t> slots; ///< starts; 0 where not made yet
  std::size_t next = 0;
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
  std::map<std::uintptr_t, Slot> slots;
  std::unordered_map<std::uint64_t, Site> sites;
  std::map<std::pair<std::uint64_t, std::size_t>, Turns> turns; ///< by (site, length)
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
               bytes, what, std::strerror(errno), kMaxPieces + 2);
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

Site* site_of(Heap& h, std::uint64_t key, std::size_t ring) {
  Site& s = h.sites[key];
  if (s.fd < 0) {
    s.fd = memfd_create("mpisim-folded", MFD_CLOEXEC);
    if (s.fd < 0) return nullptr;
    ++h.stats.sites;
  }
  if (s.size < ring) {
    if (ftruncate(s.fd, static_cast<off_t>(ring)) != 0) return nullptr;
    h.stats.physical_bytes += ring - s.size;
    s.size = ring;
  }
  return &s;
}

/// Maps `s`'s ring over [start, start + length), from where its last slot ended and around
/// again, and moves the ring's start on past this slot.
bool map_pieces(Site& s, std::uintptr_t start, std::size_t length) {
  std::size_t offset = s.next % s.size;
  for (std::size_t at = 0; at < length;) {
    const std::size_t piece = std::min(s.size - offset, length - at);
    void* want = reinterpret_cast<void*>(start + at);
    if (mmap(want, piece, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, s.fd,
             static_cast<off_t>(offset)) == MAP_FAILED)
      return false;
    at += piece;
    offset = (offset + piece) % s.size;
  }
  s.next = offset;
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

/// A new slot of `length` bytes on `s`'s ring, or 0 (after saying why).
std::uintptr_t make_slot(Heap& h, Site& s, std::size_t length, bool pooled, std::size_t bytes) {
  const std::uintptr_t start = take_range(h, length);
  if (!start) {
    errno = ENOMEM;
    complain("the folded arena is full", bytes);
    return 0;
  }
  if (!map_pieces(s, start, length)) {
    complain("mapping its pages failed", bytes);
    unmap_pieces(start, length);
    h.free_ranges.emplace(length, start);
    return 0;
  }
  h.slots.emplace(start, Slot{length, pooled, {}});
  return start;
}

/// The slot whose turn it is among those `holder` does not hold yet (made when missing), or an
/// extra slot when it holds them all; 0 on failure.
std::uintptr_t choose_slot(Heap& h, Site& s, std::uint64_t site, std::size_t length, int holder,
                           std::size_t bytes) {
  Turns& t = h.turns[{site, length}];
  const std::size_t ways = std::max<std::size_t>(1, kSlotSpan / length);
  if (t.slots.size() < ways) t.slots.resize(ways, 0);
  for (std::size_t i = 0; i < ways; ++i) {
    const std::size_t turn = (t.next + i) % ways;
    std::uintptr_t& start = t.slots[turn];
    if (!start && !(start = make_slot(h, s, length, true, bytes))) return 0;
    if (h.slots.at(start).holders.contains(holder)) continue;
    t.next = turn + 1;
    return start;
  }
  return make_slot(h, s, length, false, bytes);
}

} // namespace

void* fold_allocate(std::size_t bytes, std::uint64_t site, int holder) {
  FoldGuard guard; // the tables below allocate: those allocations are never folded
  Heap& h = heap();
  const std::size_t length = round_up(std::max<std::size_t>(bytes, 1), kPage);
  if (length < bytes) return nullptr; // overflow
  std::lock_guard lock(h.mutex);
  if (!reserve_arena(h)) {
    complain("no virtual address range can be reserved for folded blocks", bytes);
    return nullptr;
  }
  Site* s = site_of(h, site, ring_for(length));
  if (!s) {
    complain("creating its memory file failed", bytes);
    return nullptr;
  }
  const std::uintptr_t start = choose_slot(h, *s, site, length, holder, bytes);
  if (!start) return nullptr;
  Slot& slot = h.slots.at(start);
  slot.holders.insert(holder);
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
  const auto it = h.slots.find(reinterpret_cast<std::uintptr_t>(p));
  return it == h.slots.end() || it->second.holders.empty() ? 0 : it->second.length;
}

bool fold_release(void* p, int holder) {
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
  const auto it = h.slots.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == h.slots.end()) return false;
  Slot& slot = it->second;
  if (slot.holders.erase(holder) == 0) return false;
  h.live_bytes -= slot.length;
  // A slot of the site's turns stays mapped for the next block (its pages are shared anyway);
  // an extra one goes.
  if (slot.holders.empty() && !slot.pooled) {
    const std::uintptr_t start = it->first;
    const std::size_t length = slot.length;
    h.slots.erase(it);
    unmap_pieces(start, length);
    h.free_ranges.emplace(length, start);
  }
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
