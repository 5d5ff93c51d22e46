// Virtual topologies of communicators: Cartesian grids, general graphs and distributed graphs
// (MPI-3.1 chapter 7).
#pragma once

#include <vector>

#include "mpi.h"

namespace mpilite {

/// The topology attached to a communicator, shared by its members (it is immutable).
struct Topology {
  /// MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH (whose edges each member keeps for itself, in
  /// DistGraphEdges: no member knows the whole graph)
  int kind = MPI_UNDEFINED;
  // MPI_CART: extents and periodicity per dimension; ranks in row-major order (last dimension
  // varies fastest).
  std::vector<int> dims;
  std::vector<int> periods;
  // MPI_GRAPH: the neighbours of node i are edges[index[i-1] .. index[i]) (index[-1] = 0).
  std::vector<int> index;
  std::vector<int> edges;

  int ndims() const { return static_cast<int>(dims.size()); }
  /// Number of grid points (the product of dims; 1 for zero dimensions).
  int cart_size() const;
  /// Coordinates of `rank` in the grid, one per dimension.
  void cart_coords(int rank, int* coords) const;
  /// Rank at `coords`; coordinates of periodic dimensions wrap, others must be in range.
  /// Returns -1 if a non-periodic coordinate is outside the grid.
  int cart_rank(const int* coords) const;
  /// Rank `disp` steps from `rank` along `direction`, or MPI_PROC_NULL past a non-periodic edge.
  int cart_neighbor(int rank, int direction, long long disp) const;

  /// Neighbours of graph node `rank`: [first, last) of `edges`.
  int graph_first(int rank) const {
    return rank == 0 ? 0 : index[static_cast<std::size_t>(rank - 1)];
  }
  int graph_degree(int rank) const {
    return index[static_cast<std::size_t>(rank)] - graph_first(rank);
  }
};

/// One member's edges of a distributed graph, in the order MPI_Dist_graph_neighbors returns them.
struct DistGraphEdges {
  std::vector<int> sources, destinations;
  std::vector<int> source_weights, destination_weights; ///< empty when not weighted
  bool weighted = false;
};

/// The peers of one member in a neighbourhood collective, by slot: it receives block i from
/// sources[i] and sends block i to destinations[i]; MPI_PROC_NULL keeps its slot, moves nothing.
struct Neighborhood {
  std::vector<int> sources, destinations;
};

/// The neighbourhood of `rank` in `t`: for each dimension of a grid, the -1 then the +1
/// neighbour; a graph node's neighbours both ways; a distributed graph's `edges` (that member's).
Neighborhood neighborhood_of(const Topology& t, int rank, const DistGraphEdges* edges);

/// MPI_Dims_create: fills the zero entries of dims[0..ndims) so that the product of all entries is
/// `nnodes` and the filled ones are as close to each other as possible, in non-increasing order.
/// Returns false (dims unchanged) if `nnodes` is not positive, if the positive entries do not
/// divide it, or if there is no zero entry and their product is not `nnodes`.
bool dims_create(int nnodes, int ndims, int* dims);

} // namespace mpilite
