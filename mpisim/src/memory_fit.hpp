// Whether a host process's ranks can fit in the machine's memory, decided before any exists: a
// run that cannot fit must be refused at once, naming what it needs, rather than grow until
// the kernel kills it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace mpisim {

/// The least a rank costs whatever its program does: its state, the stack page its fiber
/// touches first (which holds the state too where it lives in the stack), and its copy of the
/// program's privatized globals where that is not mapped lazily.
struct RankFloor {
  std::size_t state = 0;
  std::size_t stack = 0;
  std::size_t globals = 0;

  std::size_t total() const { return state + stack + globals; }
};

/// This process's rank floor (the privatized globals are laid out by then); `state_in_stack`:
/// each rank's state is in its stack's top page rather than on the heap.
RankFloor rank_floor(bool state_in_stack);

/// Bytes this process may still use: MemAvailable, or less under a cgroup's limit.
std::optional<std::uint64_t> available_memory();

/// The refusal of `ranks` ranks of `floor` each in `available` bytes, or nothing when they fit.
std::optional<std::string> ranks_do_not_fit(std::uint64_t ranks, const RankFloor& floor,
                                            std::uint64_t available);

/// Throws ConfigError when the mean share of `ranks` over the host processes mpiexec launched
/// cannot fit in this machine's memory: called before anything is sized by the rank count (the
/// network model's per-node state, the rank map), so that the refusal comes at once.
void check_ranks_fit(int ranks, bool state_in_stack);

} // namespace mpisim
