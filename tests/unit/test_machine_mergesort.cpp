// PUPPET's topology study (thesis section 5.6, Figure 5.20 and Table A.7): the merge sort of
// benchmarks/kernels/mergesort.c on a ring and on a hypercube with Ethernet-speed links. PUPPET
// found the two equal on 2 processors (scaled speedup 1.98 on both), close on 8 (hypercube 6.85,
// ring 6.37), and the hypercube clearly faster on 16 (10.97 against 7.34): merge sort's partners
// differ in one bit of their rank, one link apart on a hypercube but up to p/2 links on a ring.
#include <gtest/gtest.h>

#include "sim_harness.hpp"

extern "C" int mergesort_main(int argc, char** argv);

namespace {

using mpisim::SimTime;

/// PUPPET's packet-switched link with its Ethernet fit: t(k) = 1449.8 us + 1.0086 us * k per
/// link, store-and-forward, one rank per node.
mpisim::MachineParams puppet_network(const char* topology) {
  mpisim::MachineParams m = mpisim::machine_preset("ethernet-1996");
  m.switching = mpisim::Switching::StoreAndForward;
  m.packet_overhead = 1'449'800'000;
  m.latency = 1'000; // the link model holds the cost; 1 ns keeps the lookahead positive
  m.topology = mpisim::parse_topology(topology, "test");
  return m;
}

SimTime predicted_sort_time(const char* topology, int processors) {
  mpisim::Config c = test::config(processors);
  c.machine = puppet_network(topology);
  const mpisim::RunSummary r = test::simulate(c, mergesort_main);
  EXPECT_EQ(r.reason, mpilite::RunEnd::Finished);
  EXPECT_EQ(r.exit_code, 0) << "the array was not sorted on " << processors << " ranks";
  return r.predicted;
}

TEST(MergeSortTopologies, RingAndHypercubeAsPuppetFound) {
  const SimTime ring2 = predicted_sort_time("ring", 2);
  const SimTime cube2 = predicted_sort_time("hypercube", 2);
  EXPECT_EQ(ring2, cube2); // two nodes one link apart either way
  const SimTime ring8 = predicted_sort_time("ring", 8);
  const SimTime cube8 = predicted_sort_time("hypercube", 8);
  const SimTime ring16 = predicted_sort_time("ring", 16);
  const SimTime cube16 = predicted_sort_time("hypercube", 16);
  // The direction of Table A.7: on 16 processors the ring is slower than the hypercube ...
  EXPECT_GT(ring16, cube16);
  EXPECT_GT(ring8, cube8);
  // ... and the gap widens from 8 to 16 processors.
  EXPECT_GT(static_cast<double>(ring16) / static_cast<double>(cube16),
            static_cast<double>(ring8) / static_cast<double>(cube8));
}

} // namespace
