// mesh[:AxB[xC] or :1d/:2d/:3d] and torus[:...]: the grid without and with wrap-around links.
#include "grid.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "topology_type.hpp"

namespace mpisim {
namespace {

using namespace topology_helpers;

constexpr int kMaxDimensions = 3;

// A link leaving a grid node along a dimension, up (+) or down (-).
Grid::Link port(std::size_t dimension, bool up) {
  return kFirstRoutedPort + 2 * dimension + (up ? 0 : 1);
}

/// Balanced extents whose product is n, largest first (as MPI_Dims_create chooses them).
std::vector<int> balanced_extents(int n, int dimensions) {
  std::vector<int> primes;
  for (int p = 2; static_cast<long long>(p) * p <= n; ++p)
    for (; n % p == 0; n /= p)
      primes.push_back(p);
  if (n > 1) primes.push_back(n);
  std::vector<int> extents(static_cast<std::size_t>(dimensions), 1);
  for (auto p = primes.rbegin(); p != primes.rend(); ++p)
    *std::min_element(extents.begin(), extents.end()) *= *p;
  std::sort(extents.rbegin(), extents.rend());
  return extents;
}

/// The size of a mesh or torus: its extents, or when left to the ranks how many dimensions.
struct GridSize {
  std::vector<int> extents; ///< empty: balanced for the ranks
  int dimensions = 2;
};

GridSize read_grid_size(std::optional<std::string_view> size) {
  GridSize grid;
  if (!size) return grid;
  const std::string_view s = *size;
  if (s.size() == 2 && s[1] == 'd' && s[0] >= '1' && s[0] <= '3') {
    grid.dimensions = s[0] - '0';
    return grid;
  }
  grid.extents = numbers(s, 'x');
  if (grid.extents.empty() || grid.extents.size() > kMaxDimensions)
    throw BadTopologySize{"give 1 to 3 extents such as 8x8, or 1d, 2d, 3d"};
  grid.dimensions = static_cast<int>(grid.extents.size());
  long long product = 1; // checked at each step, so never above 2^48
  for (int e : grid.extents)
    if ((product *= e) > kMaxNodes) throw BadTopologySize{"too many nodes"};
  return grid;
}

std::string join_extents(const std::vector<int>& extents) {
  return fmt::format("{}", fmt::join(extents, "x"));
}

std::string read_size(std::optional<std::string_view> size) {
  const GridSize grid = read_grid_size(size);
  return grid.extents.empty() ? fmt::format("{}d", grid.dimensions) : join_extents(grid.extents);
}

template <bool Wraps>
std::unique_ptr<const NetworkTopology> make(std::string_view size, int nodes_needed) {
  GridSize grid = read_grid_size(size_or_none(size));
  if (grid.extents.empty()) grid.extents = balanced_extents(nodes_needed, grid.dimensions);
  return std::make_unique<Grid>(std::move(grid.extents), Wraps);
}

} // namespace

Grid::Grid(std::vector<int> extents, bool wraps) : extents_(std::move(extents)), wraps_(wraps) {
  for (int e : extents_)
    nodes_ *= e;
}

std::string Grid::size() const {
  return join_extents(extents_);
}

std::string Grid::shape() const {
  return " " + join_extents(extents_);
}

int Grid::distance(int a, int b) const {
  int hops = 0;
  for (int extent : extents_) {
    const int delta = std::abs(a % extent - b % extent);
    hops += wraps_ ? std::min(delta, extent - delta) : delta;
    a /= extent;
    b /= extent;
  }
  return hops;
}

std::vector<int> Grid::neighbours(int node) const {
  std::vector<int> result;
  int stride = 1;
  for (int extent : extents_) {
    const int c = node / stride % extent;
    for (int step : {-1, 1}) {
      int next = c + step;
      if (wraps_) next = (next + extent) % extent;
      if (next >= 0 && next < extent && next != c) result.push_back(node + (next - c) * stride);
    }
    stride *= extent;
  }
  return result;
}

void Grid::distances_from(const std::vector<int>& sources, std::vector<int>& d) const {
  breadth_first(sources, d, [this](int node) { return neighbours(node); });
}

int Grid::diameter() const {
  int hops = 0;
  for (int extent : extents_)
    hops += wraps_ ? extent / 2 : extent - 1;
  return hops;
}

void Grid::add_routed_links(int a, int b, std::vector<Link>& links) const {
  // Dimension order: correct the first dimension fully, then the next.
  int stride = 1;
  int node = a;
  for (std::size_t dim = 0; dim < extents_.size(); ++dim) {
    const int extent = extents_[dim];
    const int from = node / stride % extent;
    const int to = b / stride % extent;
    const int up = to >= from ? to - from : to - from + extent; // steps up, wrapping
    bool forward = to >= from;
    if (wraps_) forward = up <= extent - up;
    const int steps = wraps_ ? (forward ? up : extent - up) : std::abs(to - from);
    for (int i = 0, c = from; i < steps; ++i) {
      links.push_back(link(node, port(dim, forward)));
      const int next = wraps_ ? (c + (forward ? 1 : extent - 1)) % extent : c + (forward ? 1 : -1);
      node += (next - c) * stride;
      c = next;
    }
    stride *= extent;
  }
}

extern constinit const TopologyType mesh_topology{"mesh", "mesh[:AxB[xC] or :1d/:2d/:3d]",
                                                  read_size, make<false>};
extern constinit const TopologyType torus_topology{"torus", "torus[:AxB[xC] or :1d/:2d/:3d]",
                                                   read_size, make<true>};

} // namespace mpisim
