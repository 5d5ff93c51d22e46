#include "topology.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <deque>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "config.hpp"

namespace mpisim {
namespace {

constexpr int kMaxNodes = 1 << 24;
constexpr int kMaxDimensions = 3;

struct KindName {
  TopologyKind kind;
  std::string_view name;
};
constexpr KindName kKindNames[] = {
    {TopologyKind::FullyConnected, "fully-connected"},
    {TopologyKind::Ring, "ring"},
    {TopologyKind::Mesh, "mesh"},
    {TopologyKind::Torus, "torus"},
    {TopologyKind::Hypercube, "hypercube"},
    {TopologyKind::FatTree, "fat-tree"},
    {TopologyKind::Multistage, "multistage"},
};

std::string_view kind_name(TopologyKind kind) {
  for (const KindName& k : kKindNames)
    if (k.kind == kind) return k.name;
  return "?";
}

[[noreturn]] void bad_topology(const std::string& what, const std::string& text,
                               std::string_view reason) {
  throw ConfigError(fmt::format("{}={} is not a valid topology: {}; allowed: {}", what, text,
                                reason, topology_syntax()));
}

/// A positive integer that fills all of `s`, or 0.
int whole(std::string_view s) {
  int n = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  return error == std::errc{} && end == s.data() + s.size() && n > 0 && n <= kMaxNodes ? n : 0;
}

/// "4x4x2" or "4,3" split at `separator` into positive integers; empty on any bad part.
std::vector<int> numbers(std::string_view s, char separator) {
  std::vector<int> result;
  while (true) {
    const auto cut = s.find(separator);
    const int n = whole(s.substr(0, cut));
    if (n == 0) return {};
    result.push_back(n);
    if (cut == std::string_view::npos) return result;
    s.remove_prefix(cut + 1);
  }
}

/// Smallest e >= 1 with base^e >= n.
int levels_for(int base, int n) {
  int levels = 1;
  for (long long size = base; size < n; size *= base)
    ++levels;
  return levels;
}

long long power(int base, int exponent) {
  long long p = 1;
  for (int i = 0; i < exponent && p <= kMaxNodes; ++i)
    p *= base;
  return p;
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

std::string join_extents(const std::vector<int>& extents) {
  return fmt::format("{}", fmt::join(extents, "x"));
}

// A link: the node it leaves and a port. Ports 0 and 1 are the node's injection and ejection
// links; port 2 + 2 * dimension + direction (0 up, 1 down) leaves a mesh or torus node along a
// dimension; port 2 + bit leaves a hypercube node along a bit.
constexpr Topology::Link kInjection = 0;
constexpr Topology::Link kEjection = 1;
Topology::Link link(int node, Topology::Link port) {
  return (static_cast<Topology::Link>(node) << 8) | port;
}

} // namespace

const char* topology_syntax() {
  return "fully-connected[:N], ring[:N], mesh[:AxB[xC] or :1d/:2d/:3d], torus[:AxB[xC] or "
         ":1d/:2d/:3d], hypercube[:D], fat-tree:K[,N] (K-ary N-tree), multistage:K[,S] (radix K, S "
         "stages); a missing size is as large as the ranks need";
}

TopologySpec parse_topology(const std::string& text, const std::string& what) {
  const auto colon = text.find(':');
  const std::string_view name = std::string_view(text).substr(0, colon);
  const std::string_view size =
      colon == std::string::npos ? std::string_view() : std::string_view(text).substr(colon + 1);
  const bool sized = colon != std::string::npos;
  TopologySpec spec;
  const auto known = std::find_if(std::begin(kKindNames), std::end(kKindNames),
                                  [name](const KindName& k) { return k.name == name; });
  if (known == std::end(kKindNames)) bad_topology(what, text, "unknown kind");
  spec.kind = known->kind;
  switch (spec.kind) {
  case TopologyKind::FullyConnected:
  case TopologyKind::Ring:
    if (sized && !(spec.nodes = whole(size))) bad_topology(what, text, "bad node count");
    break;
  case TopologyKind::Mesh:
  case TopologyKind::Torus:
    spec.dimensions = 2;
    if (!sized) break;
    if (size.size() == 2 && size[1] == 'd' && size[0] >= '1' && size[0] <= '3') {
      spec.dimensions = size[0] - '0';
      break;
    }
    spec.dims = numbers(size, 'x');
    if (spec.dims.empty() || spec.dims.size() > kMaxDimensions)
      bad_topology(what, text, "give 1 to 3 extents such as 8x8, or 1d, 2d, 3d");
    spec.dimensions = static_cast<int>(spec.dims.size());
    break;
  case TopologyKind::Hypercube:
    if (!sized) break;
    spec.hypercube_order = whole(size);
    if (spec.hypercube_order == 0 || spec.hypercube_order > 24)
      bad_topology(what, text, "the dimension must be 1 to 24");
    break;
  case TopologyKind::FatTree:
  case TopologyKind::Multistage: {
    const std::vector<int> parts = sized ? numbers(size, ',') : std::vector<int>{};
    if (parts.empty() || parts.size() > 2 || parts[0] < 2)
      bad_topology(what, text, "give the switch arity K >= 2, and optionally the levels");
    spec.arity = parts[0];
    spec.levels = parts.size() == 2 ? parts[1] : 0;
    if (power(spec.arity, spec.levels) > kMaxNodes) bad_topology(what, text, "too many nodes");
    break;
  }
  }
  if (spec.nodes > 0 || !spec.dims.empty()) {
    long long product = 1;
    for (int d : spec.dims)
      product *= d;
    if (product > kMaxNodes) bad_topology(what, text, "too many nodes");
  }
  return spec;
}

std::string format_topology(const TopologySpec& s) {
  const std::string name(kind_name(s.kind));
  switch (s.kind) {
  case TopologyKind::FullyConnected:
  case TopologyKind::Ring:
    return s.nodes ? fmt::format("{}:{}", name, s.nodes) : name;
  case TopologyKind::Mesh:
  case TopologyKind::Torus:
    return s.dims.empty() ? fmt::format("{}:{}d", name, s.dimensions)
                          : fmt::format("{}:{}", name, join_extents(s.dims));
  case TopologyKind::Hypercube:
    return s.hypercube_order ? fmt::format("{}:{}", name, s.hypercube_order) : name;
  case TopologyKind::FatTree:
  case TopologyKind::Multistage:
    return s.levels ? fmt::format("{}:{},{}", name, s.arity, s.levels)
                    : fmt::format("{}:{}", name, s.arity);
  }
  return name;
}

Topology::Topology(const TopologySpec& spec, int nodes_needed, const std::string& what)
    : spec_(spec) {
  nodes_needed = std::max(nodes_needed, 1);
  long long fixed = 0; // the size the user fixed, 0 when it follows the ranks
  switch (spec_.kind) {
  case TopologyKind::FullyConnected:
  case TopologyKind::Ring:
    fixed = spec_.nodes;
    nodes_ = spec_.nodes ? spec_.nodes : nodes_needed;
    if (spec_.kind == TopologyKind::Ring) spec_.dims = {nodes_};
    break;
  case TopologyKind::Mesh:
  case TopologyKind::Torus:
    if (spec_.dims.empty())
      spec_.dims = balanced_extents(nodes_needed, spec_.dimensions);
    else
      fixed = 1;
    nodes_ = 1;
    for (int d : spec_.dims)
      nodes_ *= d;
    fixed *= nodes_;
    break;
  case TopologyKind::Hypercube:
    fixed = spec_.hypercube_order ? power(2, spec_.hypercube_order) : 0;
    if (!spec_.hypercube_order)
      spec_.hypercube_order = nodes_needed > 1 ? levels_for(2, nodes_needed) : 0;
    nodes_ = static_cast<int>(power(2, spec_.hypercube_order));
    break;
  case TopologyKind::FatTree:
  case TopologyKind::Multistage:
    fixed = spec_.levels ? power(spec_.arity, spec_.levels) : 0;
    if (!spec_.levels) spec_.levels = levels_for(spec_.arity, nodes_needed);
    nodes_ = static_cast<int>(power(spec_.arity, spec_.levels));
    stages_ = spec_.levels;
    break;
  }
  if (nodes_ < nodes_needed)
    throw ConfigError(fmt::format(
        "{}: topology {} has {} nodes, but the ranks need {}; give a larger size or leave the "
        "size out ({}) so that it follows the ranks",
        what, format_topology(spec), fixed ? fixed : nodes_, nodes_needed, kind_name(spec.kind)));
}

bool Topology::wraps() const {
  return spec_.kind == TopologyKind::Ring || spec_.kind == TopologyKind::Torus;
}

std::vector<int> Topology::coordinates(int node) const {
  std::vector<int> c;
  for (int extent : spec_.dims) {
    c.push_back(node % extent);
    node /= extent;
  }
  return c;
}

int Topology::distance(int a, int b) const {
  if (a == b) return 0;
  switch (spec_.kind) {
  case TopologyKind::FullyConnected:
    return 1;
  case TopologyKind::Ring:
  case TopologyKind::Mesh:
  case TopologyKind::Torus: {
    int hops = 0;
    for (int extent : spec_.dims) {
      const int delta = std::abs(a % extent - b % extent);
      hops += wraps() ? std::min(delta, extent - delta) : delta;
      a /= extent;
      b /= extent;
    }
    return hops;
  }
  case TopologyKind::Hypercube:
    return std::popcount(static_cast<unsigned>(a ^ b));
  case TopologyKind::FatTree: {
    int level = 0; // of the nearest common ancestor switch
    for (; a != b; ++level) {
      a /= spec_.arity;
      b /= spec_.arity;
    }
    return 2 * level;
  }
  case TopologyKind::Multistage:
    return stages_ + 1;
  }
  return 0;
}

std::vector<int> Topology::neighbours(int node) const {
  std::vector<int> result;
  if (spec_.kind == TopologyKind::Hypercube) {
    for (int bit = 0; bit < spec_.hypercube_order; ++bit)
      result.push_back(node ^ (1 << bit));
    return result;
  }
  int stride = 1;
  for (int extent : spec_.dims) {
    const int c = node / stride % extent;
    for (int step : {-1, 1}) {
      int next = c + step;
      if (wraps()) next = (next + extent) % extent;
      if (next >= 0 && next < extent && next != c) result.push_back(node + (next - c) * stride);
    }
    stride *= extent;
  }
  return result;
}

std::vector<int> Topology::distances_from(const std::vector<int>& sources) const {
  constexpr int kUnreached = std::numeric_limits<int>::max();
  std::vector<int> d(static_cast<std::size_t>(nodes_), kUnreached);
  for (int s : sources)
    d[static_cast<std::size_t>(s)] = 0;
  if (sources.empty()) return d;
  switch (spec_.kind) {
  case TopologyKind::FullyConnected:
  case TopologyKind::Multistage:
    for (int& x : d)
      if (x) x = distance(0, 1);
    return d;
  case TopologyKind::FatTree: {
    // A node reaches a source through the lowest subtree they share.
    long long span = 1;
    for (int level = 1; level <= spec_.levels; ++level) {
      span *= spec_.arity;
      std::vector<char> has_source(static_cast<std::size_t>((nodes_ + span - 1) / span), 0);
      for (int s : sources)
        has_source[static_cast<std::size_t>(s / span)] = 1;
      for (int b = 0; b < nodes_; ++b)
        if (d[static_cast<std::size_t>(b)] == kUnreached &&
            has_source[static_cast<std::size_t>(b / span)])
          d[static_cast<std::size_t>(b)] = 2 * level;
    }
    return d;
  }
  default: {
    // Breadth-first search: routing on these topologies takes shortest paths.
    std::deque<int> queue(sources.begin(), sources.end());
    while (!queue.empty()) {
      const int n = queue.front();
      queue.pop_front();
      for (int m : neighbours(n))
        if (d[static_cast<std::size_t>(m)] == kUnreached) {
          d[static_cast<std::size_t>(m)] = d[static_cast<std::size_t>(n)] + 1;
          queue.push_back(m);
        }
    }
    return d;
  }
  }
}

int Topology::diameter() const {
  if (nodes_ <= 1) return 0;
  switch (spec_.kind) {
  case TopologyKind::FullyConnected:
    return 1;
  case TopologyKind::Ring:
  case TopologyKind::Mesh:
  case TopologyKind::Torus: {
    int hops = 0;
    for (int extent : spec_.dims)
      hops += wraps() ? extent / 2 : extent - 1;
    return hops;
  }
  case TopologyKind::Hypercube:
    return spec_.hypercube_order;
  case TopologyKind::FatTree:
    return 2 * spec_.levels;
  case TopologyKind::Multistage:
    return stages_ + 1;
  }
  return 0;
}

std::string Topology::describe() const {
  std::string shape;
  switch (spec_.kind) {
  case TopologyKind::Mesh:
  case TopologyKind::Torus:
    shape = " " + join_extents(spec_.dims);
    break;
  case TopologyKind::Hypercube:
    shape = fmt::format(" of dimension {}", spec_.hypercube_order);
    break;
  case TopologyKind::FatTree:
    shape = fmt::format(" ({}-ary {}-tree)", spec_.arity, spec_.levels);
    break;
  case TopologyKind::Multistage:
    shape = fmt::format(" ({} stages of radix-{} switches)", stages_, spec_.arity);
    break;
  default:
    break;
  }
  return fmt::format("{}{} ({} nodes, diameter {} links)", kind_name(spec_.kind), shape, nodes_,
                     diameter());
}

std::vector<Topology::Link> Topology::route(int a, int b) const {
  if (a == b) return {};
  std::vector<Link> links{link(a, kInjection)};
  switch (spec_.kind) {
  case TopologyKind::Ring:
  case TopologyKind::Mesh:
  case TopologyKind::Torus: {
    // Dimension order: correct the first dimension fully, then the next.
    int stride = 1;
    int node = a;
    for (std::size_t dim = 0; dim < spec_.dims.size(); ++dim) {
      const int extent = spec_.dims[dim];
      const int from = node / stride % extent;
      const int to = b / stride % extent;
      int up = to >= from ? to - from : to - from + extent; // steps in the + direction, wrapping
      bool forward = to >= from;
      if (wraps()) forward = up <= extent - up;
      const int steps = wraps() ? (forward ? up : extent - up) : std::abs(to - from);
      for (int i = 0, c = from; i < steps; ++i) {
        links.push_back(link(node, 2 + 2 * dim + (forward ? 0 : 1)));
        const int next =
            wraps() ? (c + (forward ? 1 : extent - 1)) % extent : c + (forward ? 1 : -1);
        node += (next - c) * stride;
        c = next;
      }
      stride *= extent;
    }
    break;
  }
  case TopologyKind::Hypercube: {
    int node = a;
    for (int bit = 0; bit < spec_.hypercube_order; ++bit)
      if (((node ^ b) >> bit) & 1) {
        links.push_back(link(node, 2 + static_cast<Link>(bit)));
        node ^= 1 << bit;
      }
    break;
  }
  default:
    break;
  }
  links.push_back(link(b, kEjection));
  return links;
}

} // namespace mpisim
