// MPISIM_MAP=auto: which host process simulates which rank, chosen so that few messages cross
// between host processes (each costs a frame over MPICH and protocol work; a message within one
// host costs a queue operation).
#pragma once

#include <vector>

#include "comm_graph.hpp"

namespace mpisim {

/// The block mapping: rank r on host r * hosts / ranks (contiguous ranges of nearly equal size).
std::vector<int> block_hosts(int ranks, int hosts);

/// A host for every rank of `graph`: each host gets as many ranks as under the block mapping (it
/// runs their compute, so balance matters as much as the cut), and the messages between ranks of
/// different hosts (`graph.cut`) are made small. Never cuts more than the block mapping.
/// Deterministic: the same graph gives the same hosts on every host process, so each computes it
/// alone. Greedy graph growing, then swaps of pairs of ranks between two hosts while a swap
/// lowers the cut (Kernighan-Lin); near-linear in the pairs of the graph.
std::vector<int> partition_ranks(const CommGraph& graph, int hosts);

} // namespace mpisim
