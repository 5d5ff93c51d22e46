// What the tests of the topologies (test_topology_*.cpp) share: making a topology from its text,
// the error a text gives, the links of a route, and the checks every topology must pass.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config.hpp"
#include "network_topology.hpp"

namespace topology_test {

using mpisim::Topology;
using Link = Topology::Link;

inline Topology make(const std::string& text, int nodes_needed) {
  return Topology(mpisim::parse_topology(text, "test"), nodes_needed, "test");
}

/// The ConfigError that parsing and sizing `text` for `nodes_needed` nodes throws, or "".
inline std::string error_of(const std::string& text, int nodes_needed = 1) {
  try {
    make(text, nodes_needed);
  } catch (const mpisim::ConfigError& e) {
    return e.what();
  }
  return "";
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// A link as routes number them: the node it leaves and a port, 0 injection, 1 ejection, then
/// the topology's own (2 + 2 * dimension + (0 up, 1 down) on grids, 2 + bit on hypercubes).
inline Link link(int node, int port) {
  return (static_cast<Link>(node) << 8) | static_cast<Link>(port);
}
inline Link injection(int node) {
  return link(node, 0);
}
inline Link ejection(int node) {
  return link(node, 1);
}

/// `text` is rejected for `reason`, with the message naming it and listing every form.
inline void expect_rejected(const std::string& text, const std::string& reason) {
  const std::string message = error_of(text);
  EXPECT_TRUE(contains(message, "test=" + text + " is not a valid topology: " + reason + ";"))
      << message;
  EXPECT_TRUE(contains(message, std::string("allowed: ") + mpisim::topology_syntax())) << message;
}

/// `text` is its own text form, and reads back to the same spec.
inline void expect_reads_back(const std::string& text) {
  const mpisim::TopologySpec spec = mpisim::parse_topology(text, "test");
  EXPECT_EQ(mpisim::format_topology(spec), text);
  EXPECT_EQ(mpisim::parse_topology(mpisim::format_topology(spec), "test"), spec);
}

/// The text form of `text` sized for `nodes_needed` nodes ("torus:3d", 64: "torus:4x4x4").
inline std::string sized(const std::string& text, int nodes_needed) {
  return mpisim::format_topology(make(text, nodes_needed).spec());
}

/// Every single-source distances_from() agrees with distance(), and with a zero distance only
/// from a node to itself; the diameter is the largest distance.
inline void expect_consistent_distances(const Topology& t) {
  int largest = 0;
  for (int a = 0; a < t.nodes(); ++a) {
    const std::vector<int> d = t.distances_from({a});
    for (int b = 0; b < t.nodes(); ++b) {
      EXPECT_EQ(d[static_cast<std::size_t>(b)], t.distance(a, b)) << a << "-" << b;
      EXPECT_EQ(t.distance(a, b) == 0, a == b) << a << "-" << b;
      largest = std::max(largest, t.distance(a, b));
    }
  }
  EXPECT_EQ(t.diameter(), largest);
}

/// A route of a direct network: injection, one link per hop of the distance, ejection.
inline void expect_routes_cross_the_distance(const Topology& t) {
  for (int a = 0; a < t.nodes(); ++a)
    for (int b = 0; b < t.nodes(); ++b) {
      const std::vector<Link> r = t.route(a, b);
      if (a == b) {
        EXPECT_TRUE(r.empty());
        continue;
      }
      ASSERT_EQ(r.size(), static_cast<std::size_t>(t.distance(a, b)) + 2) << a << "-" << b;
      EXPECT_EQ(r.front(), injection(a));
      EXPECT_EQ(r.back(), ejection(b));
    }
}

} // namespace topology_test
