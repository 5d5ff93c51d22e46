// Memory folding (docs/large-scale.md): blocks whose contents do not matter share physical
// pages. Each call site owns one small memfd; a folded block is a range of a large reserved
// virtual arena onto which that memfd is mapped again and again, so every rank's copy of a large
// array costs the memfd's pages once per host process, plus page tables. Contents are garbage by
// design: all ranks, and all parts of one block, write the same pages.
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

/// Folds a block of `bytes` for call site `site` (any integer: equal sites share pages). Returns
/// a page-aligned block, or nullptr (with a message on stderr naming the limit) when the arena or
/// the host's memory mappings are exhausted. Thread-safe; never calls malloc recursively in a way
/// that folds.
void* fold_allocate(std::size_t bytes, std::uint64_t site);

/// Whether `p` points into the folded arena (cheap: two compares; no lock).
bool is_folded(const void* p);

/// Size requested for the folded block that starts at `p` (0 when it is not one).
std::size_t folded_size(const void* p);

/// Releases a block from fold_allocate(). Returns false when `p` is not the start of one.
bool fold_release(void* p);

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
