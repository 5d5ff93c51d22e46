// malloc, calloc, realloc, free and the aligned allocators of the whole process, for memory
// folding and fresh heaps. A block that a rank allocates in its own code and that reaches
// MPISIM_AUTO_SHARED_MALLOC is folded (folded_heap.hpp); free and realloc recognize folded
// blocks by address. Everything else goes to the next definition (the C library's, or the
// AddressSanitizer's in sanitized builds), zeroed when MPISIM_FRESH_HEAP asks (zeroed_blocks.hpp).
#include <dlfcn.h>
#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "auto_fold.hpp"
#include "fold_guard.hpp"
#include "folded_heap.hpp"
#include "world.hpp"
#include "zeroed_blocks.hpp"

namespace mpilite {
namespace {

using MallocFn = void* (*)(std::size_t);
using CallocFn = void* (*)(std::size_t, std::size_t);
using ReallocFn = void* (*)(void*, std::size_t);
using FreeFn = void (*)(void*);
using UsableFn = std::size_t (*)(void*);
using PosixMemalignFn = int (*)(void**, std::size_t, std::size_t);
using AlignedFn = void* (*)(std::size_t, std::size_t);
using PageFn = void* (*)(std::size_t);

struct Next {
  MallocFn malloc = nullptr;
  CallocFn calloc = nullptr;
  ReallocFn realloc = nullptr;
  FreeFn free = nullptr;
  UsableFn usable = nullptr;
  PosixMemalignFn posix_memalign = nullptr;
  AlignedFn aligned_alloc = nullptr;
  AlignedFn memalign = nullptr;
  PageFn valloc = nullptr;
  PageFn pvalloc = nullptr;
};
Next g_next;

/// dlsym may allocate while the next definitions are looked up: those few blocks come from
/// here and are never freed.
alignas(16) char g_boot[16384];
std::size_t g_boot_used = 0;
bool g_resolving = false;

MPISIM_MALLOC_PATH bool from_boot(const void* p) {
  return p >= static_cast<const void*>(g_boot) &&
         p < static_cast<const void*>(g_boot + sizeof g_boot);
}

MPISIM_MALLOC_PATH void* boot_alloc(std::size_t n) {
  n = (n + 15) / 16 * 16;
  if (n > sizeof g_boot - g_boot_used) return nullptr;
  void* p = g_boot + g_boot_used;
  g_boot_used += n;
  return p;
}

MPISIM_MALLOC_PATH const Next& next() {
  if (g_next.free) return g_next;
  g_resolving = true;
  Next n;
  n.malloc = reinterpret_cast<MallocFn>(dlsym(RTLD_NEXT, "malloc"));
  n.calloc = reinterpret_cast<CallocFn>(dlsym(RTLD_NEXT, "calloc"));
  n.realloc = reinterpret_cast<ReallocFn>(dlsym(RTLD_NEXT, "realloc"));
  n.usable = reinterpret_cast<UsableFn>(dlsym(RTLD_NEXT, "malloc_usable_size"));
  n.free = reinterpret_cast<FreeFn>(dlsym(RTLD_NEXT, "free"));
  n.posix_memalign = reinterpret_cast<PosixMemalignFn>(dlsym(RTLD_NEXT, "posix_memalign"));
  n.aligned_alloc = reinterpret_cast<AlignedFn>(dlsym(RTLD_NEXT, "aligned_alloc"));
  n.memalign = reinterpret_cast<AlignedFn>(dlsym(RTLD_NEXT, "memalign"));
  n.valloc = reinterpret_cast<PageFn>(dlsym(RTLD_NEXT, "valloc"));
  n.pvalloc = reinterpret_cast<PageFn>(dlsym(RTLD_NEXT, "pvalloc"));
  g_next = n;
  g_resolving = false;
  return g_next;
}

std::atomic<std::size_t> g_threshold{0};
bool g_zero_new = false;

/// Whether glibc took the block at `p` from mmap (bit 1 of the size word before it, its chunk
/// header): fresh kernel pages, zero until written.
MPISIM_MALLOC_PATH bool from_kernel(const void* p) {
  return (static_cast<const std::size_t*>(p)[-1] & 2) != 0;
}

/// Whether the simulation thread, `w`'s, runs a rank's own code now: a fiber outside MPI calls.
MPISIM_MALLOC_PATH bool rank_code_runs(World& w) {
  return w.in_rank() && w.self().call_depth == 0;
}

/// Whether a block allocated now goes to a rank's own code, whose heap MPISIM_FRESH_HEAP makes
/// fresh. On the simulation thread outside every rank (the scheduler, the network model) or
/// inside an MPI call, the block is the simulator's own, which writes what it reads: zeroing it
/// cost half the instructions of a run with --critical-path (a 2.8 KiB path per message leg).
/// Other threads run a rank's OpenMP workers, and nothing runs before the world but the
/// program's start: both count as the rank's code.
MPISIM_MALLOC_PATH bool for_rank_code() {
  World* w = World::try_get();
  return !w || !w->on_simulation_thread() || rank_code_runs(*w);
}

/// The block `p`, its bytes from `from` to its end (slack included: a realloc that grows it
/// in place hands that out) zeroed unless they are fresh kernel pages or the simulator's own.
MPISIM_MALLOC_PATH void* zero_unless_fresh(void* p, std::size_t from = 0) {
  if (!g_zero_new || !p || from_kernel(p) || !for_rank_code()) return p;
  const std::size_t n = next().usable(p);
  if (n > from) std::memset(static_cast<char*>(p) + from, 0, n - from);
  return p;
}
/// Whether a block of `n` bytes allocated now is folded: a rank's own code on the ranks' thread.
MPISIM_MALLOC_PATH bool fold_now(std::size_t n) {
  const std::size_t t = g_threshold.load(std::memory_order_relaxed);
  if (t == 0 || n < t || g_fold_depth) return false;
  World* w = World::try_get();
  return w && w->on_simulation_thread() && rank_code_runs(*w);
}

void* fold(std::size_t n, const void* caller) {
  return fold_allocate(n, fold_site_of(caller), fold_holder());
}

} // namespace

std::uint64_t fold_site_of(const void* caller) {
  FoldGuard guard;
  Dl_info info{};
  const auto at = reinterpret_cast<std::uintptr_t>(caller);
  if (dladdr(caller, &info) && info.dli_fbase)
    return at - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  return at;
}

MPISIM_MALLOC_PATH int fold_holder() {
  World* w = World::of_calling_rank();
  return w ? w->self().id : -1;
}

void zero_new_blocks() {
#if !defined(__SANITIZE_ADDRESS__)
  next();
  g_zero_new = true;
#endif
}

void* allocate_unzeroed(std::size_t n) {
  return next().malloc(n);
}

void* allocate_for_rank(std::size_t n) {
  return g_zero_new ? next().calloc(1, n) : next().malloc(n);
}

void set_auto_fold(std::size_t threshold) {
  next();
  g_threshold.store(threshold);
}

} // namespace mpilite

using namespace mpilite;

extern "C" {

MPISIM_MALLOC_PATH void* malloc(std::size_t n) {
  if (g_resolving) return boot_alloc(n);
  if (fold_now(n)) return fold(n, __builtin_return_address(0));
  // glibc's calloc clears only what is not fresh: an mmap'd block, or the part of a block carved
  // from newly grown heap, stays untouched until the program writes it.
  if (g_zero_new && for_rank_code()) return next().calloc(1, n);
  return next().malloc(n);
}

MPISIM_MALLOC_PATH void free(void* p) {
  if (!p || from_boot(p)) return;
  if (is_folded(p)) {
    fold_release(p, fold_holder());
    return;
  }
  next().free(p);
}

MPISIM_MALLOC_PATH void* calloc(std::size_t count, std::size_t size) {
  if (g_resolving) {
    // Zero by being static storage never handed out before.
    if (size && count > SIZE_MAX / size) return nullptr;
    return boot_alloc(count * size);
  }
  std::size_t n = 0;
  if (__builtin_mul_overflow(count, size, &n)) return next().calloc(count, size);
  // A folded block is not zeroed: other ranks' writes show through its pages anyway
  // (docs/large-scale.md).
  if (fold_now(n)) return fold(n, __builtin_return_address(0));
  return next().calloc(count, size);
}

MPISIM_MALLOC_PATH void* realloc(void* p, std::size_t n) {
  if (g_resolving || from_boot(p)) {
    void* q = g_resolving ? boot_alloc(n) : next().malloc(n);
    if (q && p)
      std::memcpy(q, p, std::min<std::size_t>(n, g_boot + sizeof g_boot - static_cast<char*>(p)));
    return q;
  }
  const bool folded = is_folded(p);
  if (!folded && !fold_now(n)) {
    // Asked only with a fresh heap: without one, realloc stays a single call.
    const std::size_t old = g_zero_new && p ? next().usable(p) : 0;
    void* q = next().realloc(p, n);
    return zero_unless_fresh(q, old);
  }
  // From here on the result is folded: the block was, or its new size is to be.
  const void* caller = __builtin_return_address(0);
  if (!p) return fold(n, caller);
  if (n == 0) {
    free(p);
    return nullptr;
  }
  void* q = fold(n, caller);
  if (!q) return nullptr;
  // Folded contents are garbage: copying them into another folded block would only cost time.
  if (!folded) std::memcpy(q, p, std::min(next().usable(p), n));
  free(p);
  return q;
}

MPISIM_MALLOC_PATH int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
  const int e = next().posix_memalign(out, alignment, n);
  if (e == 0) zero_unless_fresh(*out);
  return e;
}

MPISIM_MALLOC_PATH void* aligned_alloc(std::size_t alignment, std::size_t n) {
  return zero_unless_fresh(next().aligned_alloc(alignment, n));
}

MPISIM_MALLOC_PATH void* memalign(std::size_t alignment, std::size_t n) {
  return zero_unless_fresh(next().memalign(alignment, n));
}

MPISIM_MALLOC_PATH void* valloc(std::size_t n) {
  return zero_unless_fresh(next().valloc(n));
}

MPISIM_MALLOC_PATH void* pvalloc(std::size_t n) {
  return zero_unless_fresh(next().pvalloc(n));
}

MPISIM_MALLOC_PATH std::size_t malloc_usable_size(void* p) {
  if (!p) return 0;
  if (from_boot(p)) return 0;
  if (is_folded(p)) return folded_size(p);
  return next().usable(p);
}

} // extern "C"
