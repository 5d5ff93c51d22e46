#include "topology.hpp"

#include <algorithm>
#include <climits>

namespace mpilite {

int Topology::cart_size() const {
  int n = 1;
  for (int d : dims)
    n *= d;
  return n;
}

void Topology::cart_coords(int rank, int* coords) const {
  for (int i = ndims() - 1; i >= 0; --i) {
    const int d = dims[static_cast<std::size_t>(i)];
    coords[i] = rank % d;
    rank /= d;
  }
}

int Topology::cart_rank(const int* coords) const {
  int rank = 0;
  for (int i = 0; i < ndims(); ++i) {
    const int d = dims[static_cast<std::size_t>(i)];
    int c = coords[i];
    if (periods[static_cast<std::size_t>(i)])
      c = ((c % d) + d) % d;
    else if (c < 0 || c >= d)
      return -1;
    rank = rank * d + c;
  }
  return rank;
}

int Topology::cart_neighbor(int rank, int direction, long long disp) const {
  std::vector<int> coords(dims.size());
  cart_coords(rank, coords.data());
  const long long d = dims[static_cast<std::size_t>(direction)];
  long long c = coords[static_cast<std::size_t>(direction)] + disp;
  if (periods[static_cast<std::size_t>(direction)])
    c = ((c % d) + d) % d;
  else if (c < 0 || c >= d)
    return MPI_PROC_NULL;
  coords[static_cast<std::size_t>(direction)] = static_cast<int>(c);
  return cart_rank(coords.data());
}

Neighborhood neighborhood_of(const Topology& t, int rank, const DistGraphEdges* edges) {
  Neighborhood n;
  if (t.kind == MPI_CART) {
    for (int d = 0; d < t.ndims(); ++d)
      for (int disp : {-1, 1})
        n.sources.push_back(t.cart_neighbor(rank, d, disp));
    n.destinations = n.sources;
  } else if (t.kind == MPI_GRAPH) {
    const auto first = t.edges.begin() + t.graph_first(rank);
    n.sources.assign(first, first + t.graph_degree(rank));
    n.destinations = n.sources;
  } else if (edges) {
    n.sources = edges->sources;
    n.destinations = edges->destinations;
  }
  return n;
}

namespace {

/// Search for the most balanced factorization: d[0] >= d[1] >= ... with product n, smallest
/// d[0] - d[last] (MPICH's measure, after Träff and Lübbe, "Specification guideline violations
/// by MPI_Dims_create", EuroMPI'15), and of those MPICH's choice.
struct BalancedSearch {
  std::vector<int> divisors; ///< of the original n, increasing
  std::vector<int> current;
  std::vector<int> best;
  int best_spread = INT_MAX;

  /// MPICH tries the factors from the last (smallest) one up, each in increasing order, and
  /// keeps the last of equally balanced ones: of two, the one whose factors read from the last
  /// are larger at the first that differs.
  bool later_in_mpich_order() const {
    return std::lexicographical_compare(best.rbegin(), best.rend(), current.rbegin(),
                                        current.rend());
  }

  void run(int n, int k, int largest) {
    if (k == 1) {
      if (n > largest) return;
      current.push_back(n);
      const int spread = current.front() - n;
      if (spread < best_spread || (spread == best_spread && later_in_mpich_order())) {
        best_spread = spread;
        best = current;
      }
      current.pop_back();
      return;
    }
    for (int d : divisors) {
      if (d > largest || d > n) break;
      if (n % d) continue;
      // d is the largest of the k remaining factors, so d^k >= n.
      long long power = 1;
      for (int i = 0; i < k && power < n; ++i)
        power *= d;
      if (power < n) continue;
      // The spread can only grow from here: the last factor is at most d (an equal one may still
      // be the one MPICH chooses).
      if (!current.empty() && current.front() - d > best_spread) continue;
      current.push_back(d);
      run(n / d, k - 1, d);
      current.pop_back();
    }
  }
};

} // namespace

bool dims_create(int nnodes, int ndims, int* dims) {
  if (nnodes <= 0) return false;
  long long fixed = 1;
  int free_dims = 0;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] > 0)
      fixed *= dims[i];
    else
      ++free_dims;
  }
  if (nnodes % fixed != 0) return false;
  if (free_dims == 0) return nnodes == fixed;
  const int n = static_cast<int>(nnodes / fixed);
  BalancedSearch s;
  for (int d = 1; static_cast<long long>(d) * d <= n; ++d)
    if (n % d == 0) {
      s.divisors.push_back(d);
      if (d != n / d) s.divisors.push_back(n / d);
    }
  std::sort(s.divisors.begin(), s.divisors.end());
  s.run(n, free_dims, n);
  int j = 0;
  for (int i = 0; i < ndims; ++i)
    if (dims[i] == 0) dims[i] = s.best[static_cast<std::size_t>(j++)];
  return true;
}

} // namespace mpilite
