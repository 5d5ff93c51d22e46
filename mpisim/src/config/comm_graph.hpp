// The communication matrix a run wrote (MPISIM_COMM_MATRIX) read back as a graph of ranks: what
// MPISIM_MAP=auto partitions among host processes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mpisim {

/// Ranks as vertices and an edge between two ranks that exchanged messages, weighted by the
/// messages sent in both directions. Compressed rows: memory per pair that communicated, never per
/// pair of ranks, so 100 000 ranks with a few neighbours each take a few MiB.
class CommGraph {
public:
  /// One line of the matrix: `messages` sent from `src` to `dst`.
  struct Flow {
    int src;
    int dst;
    std::uint64_t messages;
  };

  CommGraph() = default;
  /// The graph of `ranks` ranks with these flows; flows of a rank to itself are left out (they
  /// never cross hosts) and both directions of a pair add up. Every rank must be below `ranks`.
  CommGraph(int ranks, std::vector<Flow> flows);

  int ranks() const { return ranks_; }
  std::span<const int> neighbours(int rank) const {
    return {neighbour_.data() + first_[static_cast<std::size_t>(rank)],
            neighbour_.data() + first_[static_cast<std::size_t>(rank) + 1]};
  }
  /// The weights of neighbours(rank), in the same order (increasing neighbour rank).
  std::span<const std::int64_t> weights(int rank) const {
    return {weight_.data() + first_[static_cast<std::size_t>(rank)],
            weight_.data() + first_[static_cast<std::size_t>(rank) + 1]};
  }
  /// The messages between two different ranks.
  std::uint64_t messages() const;
  /// The messages between ranks that `host_of` puts on different hosts.
  std::uint64_t cut(const std::vector<int>& host_of) const;

private:
  int ranks_ = 0;
  std::vector<std::size_t> first_{0};
  std::vector<int> neighbour_;
  std::vector<std::int64_t> weight_;
};

/// Reads a matrix MPISIM_COMM_MATRIX wrote ("src,dst,messages,bytes" lines, the pair of the last
/// rank with itself always among them, which gives the rank count) for a run of `ranks` ranks.
/// Errors start with `setting` (e.g. "MPISIM_MAP=auto:m.csv") and say how to get a good file:
/// throws ConfigError for a file that cannot be read, a malformed line (named with its number)
/// or a matrix of another rank count.
CommGraph read_comm_graph(const std::string& path, int ranks, const std::string& setting);

} // namespace mpisim
