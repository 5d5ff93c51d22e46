// Which host process simulates which rank (MPISIM_MAP).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "comm_graph.hpp"
#include "config.hpp"

namespace mpisim {

/// The communication matrix MPISIM_MAP=auto partitions, read and checked before the host
/// processes connect, so that a bad file stops the run at once. nullopt for the other maps, and
/// for plain `auto` whose MPISIM_COMM_MATRIX file does not exist yet (this run records it).
/// Throws ConfigError for an unreadable or malformed matrix or one of another rank count.
std::optional<CommGraph> read_auto_map_graph(const Config& config);

class RankMap {
public:
  /// config.map: "block" (contiguous ranges of nearly equal size), "cyclic" (rank % hosts),
  /// "auto" / "auto:FILE" (partitions `graph`, from read_auto_map_graph; block without one), or
  /// the path of a file with one host number per line, line i for rank i ('#' starts a comment).
  /// Under a network model whose nodes must be whole on one host process, block keeps them
  /// whole and any other map must. Throws ConfigError for a bad map file or a split node.
  RankMap(const Config& config, const std::optional<CommGraph>& graph, int hosts);

  int host_of(int rank) const { return host_[static_cast<std::size_t>(rank)]; }
  /// The ranks of `host`, in increasing order.
  std::vector<int> ranks_of(int host) const;
  int hosts() const { return hosts_; }
  /// One line for the report: the mapping used and, for auto, what it saves.
  const std::string& description() const { return description_; }
  /// The same for the same mapping, on every host process: they must agree.
  std::uint64_t fingerprint() const;

private:
  /// Under a network model that keeps each node's ranks on one host process: makes `block`
  /// blocks of whole nodes, or refuses a map that splits a node (ConfigError).
  void keep_nodes_whole(const Config& config, bool block);

  std::vector<int> host_;
  int hosts_;
  std::string description_;
};

} // namespace mpisim
