// Memory folding (docs/large-scale.md): blocks whose contents do not matter share physical
// pages. Each call site owns one memfd of at least 128 MiB, its ring. A folded block is a slot:
// a range of a large reserved virtual arena onto which the ring is mapped from where the site's
// previous slot ended, and around again. The blocks of all ranks allocated at one site with one
// length take turns over at most 512 MiB of slots, so the host pays one ring of pages and at
// most 512 MiB of virtual memory (page tables) per site and length, while successive ranks still
// touch distinct addresses and pages as their real arrays would (for the page faults and the
// caches). Contents are garbage by design.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mpilite {

/// What folding has done in this host process (for the report).
struct FoldStats {
  std::uint64_t blocks = 0;         ///< folded allocations made
  std::uint64_t sites = 0;          ///< distinct call sites (one memfd each)
  std::uint64_t peak_bytes = 0;     ///< largest sum of live folded blocks (virtual bytes)
  std::uint64_t physical_bytes = 0; ///< sum of the memfds' sizes: what the pages can cost
};

/// Folds a block of `bytes` for call site `site` (any integer: equal sites share pages) held by
/// `holder` (a rank, or -1): the block may be the very address other holders got at this site,
/// never one this holder holds already. Returns a page-aligned block, or nullptr (with a message
/// on stderr naming the limit) when the arena or the host's memory mappings are exhausted.
/// Thread-safe; never calls malloc recursively in a way that folds.
void* fold_allocate(std::size_t bytes, std::uint64_t site, int holder);

/// Whether `p` points into the folded arena (cheap: two compares; no lock).
bool is_folded(const void* p);

/// Usable size of the folded block that starts at `p`: the requested size rounded up to pages
/// (0 when it is not one).
std::size_t folded_size(const void* p);

/// Releases `holder`'s block from fold_allocate(). Returns false when `p` is not the start of
/// one that `holder` holds.
bool fold_release(void* p, int holder);

FoldStats fold_stats();

/// Whether any block was ever folded in this process.
bool folding_used();

/// Physical memory of this process in KiB: proportional set size (which counts a page mapped at
/// many addresses once, unlike the resident set size) plus page tables. -1 when /proc is missing.
long physical_memory_kib();

/// Largest physical_memory_kib() seen: sampled before a folded block is released while the live
/// folded blocks are larger than at any earlier sample, and whenever this is called (the run
/// calls it at its end).
long sampled_peak_memory_kib();

} // namespace mpilite
