#include "rank_map.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "network_model.hpp"
#include "rank_partition.hpp"

namespace mpisim {
namespace {

std::vector<int> read_map_file(const std::string& path, int ranks, int hosts) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("MPISIM_MAP={}: cannot read the file", path));
  std::vector<int> host;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    int h;
    if (!(words >> h)) continue;
    if (h < 0 || h >= hosts)
      throw ConfigError(fmt::format("MPISIM_MAP={}:{}: host {} does not exist (there are {} host "
                                    "processes, numbered from 0)",
                                    path, lineno, h, hosts));
    host.push_back(h);
  }
  if (static_cast<int>(host.size()) != ranks)
    throw ConfigError(
        fmt::format("MPISIM_MAP={}: the file maps {} ranks but the simulation has {}; "
                    "give one host number per line, line i for rank i",
                    path, host.size(), ranks));
  return host;
}

} // namespace

std::optional<CommGraph> read_auto_map_graph(const Config& config) {
  const std::string path = auto_map_matrix(config);
  if (path.empty()) return std::nullopt;
  if (config.map == "auto") {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::nullopt;
    try {
      return read_comm_graph(path, config.ranks, "MPISIM_MAP=auto with MPISIM_COMM_MATRIX=" + path);
    } catch (const ConfigError& e) {
      // A job script that keeps "--map auto" needs no second setting to start afresh.
      throw ConfigError(fmt::format("{}; or delete {}: the next run with MPISIM_MAP=auto records "
                                    "it again",
                                    e.what(), path));
    }
  }
  return read_comm_graph(path, config.ranks, "MPISIM_MAP=" + config.map);
}

RankMap::RankMap(const Config& config, const std::optional<CommGraph>& graph, int hosts)
    : hosts_(hosts), description_(config.map) {
  const std::string& spec = config.map;
  const std::string matrix = auto_map_matrix(config);
  if (spec == "block") {
    host_ = block_hosts(config.ranks, hosts);
  } else if (spec == "cyclic") {
    for (int r = 0; r < config.ranks; ++r)
      host_.push_back(r % hosts);
  } else if (!matrix.empty() && !graph) {
    host_ = block_hosts(config.ranks, hosts);
    description_ = fmt::format("block (MPISIM_MAP=auto: no communication matrix {} yet; this "
                               "run records it, the next ones map from it)",
                               matrix);
  } else if (!matrix.empty()) {
    host_ = partition_ranks(*graph, hosts);
    description_ = fmt::format(
        "auto from {}: {} of its {} messages between host processes (block: {})", matrix,
        graph->cut(host_), graph->messages(), graph->cut(block_hosts(config.ranks, hosts)));
  } else {
    host_ = read_map_file(spec, config.ranks, hosts);
    description_ = "file " + spec;
  }
  if (hosts > 1 && find_network_model(config.machine.network)->whole_nodes)
    keep_nodes_whole(config, spec == "block");
}

void RankMap::keep_nodes_whole(const Config& config, bool block) {
  const int per_node = config.machine.ranks_per_node;
  const int nodes = (config.ranks + per_node - 1) / per_node;
  if (block) { // blocks of whole nodes, of nearly equal size
    const std::vector<int> host_of_node = block_hosts(nodes, hosts_);
    for (int r = 0; r < config.ranks; ++r)
      host_[static_cast<std::size_t>(r)] = host_of_node[static_cast<std::size_t>(r / per_node)];
    // With fewer nodes than host processes some host processes simulate no rank, as with fewer
    // ranks than host processes.
    description_ = fmt::format("block of whole nodes ({} ranks per node)", per_node);
    return;
  }
  for (int r = 0; r < config.ranks; ++r) {
    const int first = r - r % per_node;
    if (host_of(r) == host_of(first)) continue;
    throw ConfigError(fmt::format(
        "MPISIM_NETWORK={} keeps each node's ranks on one host process, but MPISIM_MAP={} puts "
        "rank {} on host {} and rank {} of the same node (node {}, {} ranks per node) on host "
        "{}: use MPISIM_MAP=block, which keeps nodes whole, or a map that does",
        config.machine.network, config.map, first, host_of(first), r, r / per_node, per_node,
        host_of(r)));
  }
}

std::vector<int> RankMap::ranks_of(int host) const {
  std::vector<int> out;
  for (std::size_t r = 0; r < host_.size(); ++r)
    if (host_[r] == host) out.push_back(static_cast<int>(r));
  return out;
}

std::uint64_t RankMap::fingerprint() const {
  std::uint64_t h = 14695981039346656037ull; // FNV-1a
  for (int host : host_) {
    h ^= static_cast<std::uint64_t>(host);
    h *= 1099511628211ull;
  }
  return h;
}

} // namespace mpisim
