// Whether a host process's ranks can fit in the machine's memory, decided before any exists: a
// run that cannot fit must be refused at once, naming what it needs, rather than grow until
// the kernel kills it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace mpisim {

struct Config;

/// The least a rank costs whatever its program does: its state, the stack page its fiber
/// touches first (which holds the state too where it lives in the stack), and its copy of the
/// program's privatized globals where that is not mapped lazily.
struct RankFloor {
  std::size_t state = 0;
  std::size_t stack = 0;
  std::size_t globals = 0;
  bool copied = false; ///< `stack`: what a copied-out stack keeps, not a page

  std::size_t total() const { return state + stack + globals; }
};

/// The least a blocked rank's copied-out stack keeps on the heap: its frames (about 700 bytes
/// in MPI_Recv).
inline constexpr std::size_t kParkedFrames = 512;

/// This process's rank floor (the privatized globals are laid out by then); `state_in_stack`:
/// each rank's state is in its stack's top page rather than on the heap. `copied`: stacks of
/// `stack_size` bytes copied out while blocked, which keep their frames' copy and, for the
/// guard markers of their parked pages, their share of the page tables (a 4 KiB page per 2 MiB
/// of stacks) instead of a page.
RankFloor rank_floor(bool state_in_stack, bool copied = false, std::size_t stack_size = 0);

/// MPISIM_STACK_COPY=auto: whether to copy stacks out so that `ranks` ranks per host process
/// fit in `available` bytes. A copied stack makes a long-blocked rank cost microseconds more
/// (docs/performance.md, Stack copying), so only where stacks in place, at `in_place` each,
/// would take more than three quarters of the memory: the floor leaves out messages, the
/// program's arrays and the report.
bool copy_to_fit(std::uint64_t ranks, const RankFloor& in_place, std::uint64_t available);

/// Bytes this process may still use: MemAvailable, or less under a cgroup's limit.
std::optional<std::uint64_t> available_memory();

/// The refusal of `ranks` ranks of `floor` each in `available` bytes, or nothing when they fit.
std::optional<std::string> ranks_do_not_fit(std::uint64_t ranks, const RankFloor& floor,
                                            std::uint64_t available);

/// Settles MPISIM_STACK_COPY=auto against this machine's memory (copy_to_fit) for the mean
/// share of the ranks over the host processes mpiexec launched, then throws ConfigError when
/// that share cannot fit even so: called before anything is sized by the rank count (the
/// network model's per-node state, the rank map), so that the refusal comes at once.
void fit_ranks(Config& config);
/// fit_ranks() with `available` bytes and `hosts` host processes.
void fit_ranks(Config& config, std::uint64_t available, int hosts);

} // namespace mpisim
