// The same machine in SimGrid SMPI's terms (mpisim-to-simgrid): every value it maps, exactly.
#include <gtest/gtest.h>

#include <algorithm>

#include "config.hpp"
#include "machine.hpp"
#include "simgrid_platform.hpp"

namespace mpisim {
namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool mentions(const std::vector<std::string>& v, const std::string& s) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& x) { return x.find(s) != x.npos; });
}

TEST(SimgridPlatform, ClusterPresetMapsEveryParameter) {
  const SimgridModel g = to_simgrid(machine_preset("cluster"), 3, SimgridCompute::Off);
  // Two full-duplex links of half the 1.5 us latency each.
  EXPECT_NE(g.platform_xml.find("radical=\"0-2\""), std::string::npos) << g.platform_xml;
  EXPECT_NE(g.platform_xml.find("bw=\"12000000000Bps\" lat=\"0.000000750000s\" "
                                "sharing_policy=\"SPLITDUPLEX\""),
            std::string::npos)
      << g.platform_xml;
  EXPECT_NE(g.platform_xml.find("loopback_bw=\"20000000000Bps\" loopback_lat=\"0.000000100000s\""),
            std::string::npos)
      << g.platform_xml;
  EXPECT_NE(g.platform_xml.find("speed=\"1000000000f\""), std::string::npos) << g.platform_xml;
  EXPECT_EQ(g.hostfile, (std::vector<std::string>{"node-0", "node-1", "node-2"}));
  EXPECT_TRUE(has(g.options, "smpi/simulate-computation:no"));
  EXPECT_TRUE(has(g.options, "smpi/os:0:0.000000200000:0"));
  EXPECT_TRUE(has(g.options, "smpi/ois:0:0.000000200000:0"));
  EXPECT_TRUE(has(g.options, "smpi/or:0:0.000000200000:0"));
  EXPECT_TRUE(has(g.options, "smpi/send-is-detached-thresh:65537"));
  EXPECT_TRUE(has(g.options, "smpi/async-small-thresh:65537"));
  EXPECT_TRUE(has(g.options, "smpi/test:0.000000100000"));
  EXPECT_TRUE(has(g.options, "smpi/coll-selector:mpich"));
  // Above the 64 KiB eager limit the latency carries mpisim's handshake: (3 L + o_s + o_r) / L;
  // SMPI's entry for payloads from F bytes is F + 15.
  EXPECT_TRUE(has(g.options, "smpi/lat-factor:0:1;65552:3.2666666666666666"));
  EXPECT_TRUE(has(g.options, "smpi/bw-factor:0:1;65552:1"));
  ASSERT_EQ(g.unmapped.size(), 2u);
  EXPECT_NE(g.unmapped[0].find("one message after another"), std::string::npos) << g.unmapped[0];
  EXPECT_NE(g.unmapped[1].find("storage"), std::string::npos) << g.unmapped[1];
}

TEST(SimgridPlatform, SegmentsBecomeFactorsAndNodesHoldTheirRanks) {
  MachineParams m = machine_preset("cluster");
  m.segments = {{1024, 3'000'000, 6e9}};
  m.ranks_per_node = 2;
  m.cpu_scale = 0.5;
  m.network = "contention";
  m.io_latency = 0;
  m.io_bandwidth = m.io_shared_bandwidth = 0;
  const SimgridModel g = to_simgrid(m, 3, SimgridCompute::Measured);
  // The segment's 3 us, and from the first rendezvous size 3 us + 2 L + o_s + o_r = 6.4 us.
  EXPECT_TRUE(has(g.options, "smpi/lat-factor:0:1;1039:2;65552:4.2666666666666666"))
      << g.options[5];
  EXPECT_TRUE(has(g.options, "smpi/bw-factor:0:1;1039:0.5;65552:0.5")) << g.options[6];
  EXPECT_TRUE(has(g.options, "smpi/simulate-computation:yes"));
  EXPECT_EQ(g.hostfile, (std::vector<std::string>{"node-0", "node-0", "node-1"}));
  EXPECT_NE(g.platform_xml.find("radical=\"0-1\""), std::string::npos);
  EXPECT_NE(g.platform_xml.find("speed=\"2000000000f\""), std::string::npos);
  EXPECT_TRUE(g.unmapped.empty()) << g.unmapped.front();
}

TEST(SimgridPlatform, WhatTheClusterCannotExpressIsNamed) {
  const SimgridModel sp2 = to_simgrid(machine_preset("sp2"), 4, SimgridCompute::Off);
  EXPECT_TRUE(mentions(sp2.unmapped, "topology multistage:4")) << sp2.unmapped.size();
  EXPECT_TRUE(mentions(sp2.unmapped, "hop latency 125 ns"));
  const SimgridModel ideal = to_simgrid(machine_preset("ideal"), 2, SimgridCompute::Off);
  EXPECT_TRUE(mentions(ideal.unmapped, "infinite bandwidth"));
  EXPECT_TRUE(mentions(ideal.unmapped, "eager limit"));
  MachineParams calibrated = machine_preset("cluster");
  calibrated.sendrecv_extra = {{0, 20'000}};
  EXPECT_TRUE(mentions(to_simgrid(calibrated, 2, SimgridCompute::Off).unmapped, "sendrecv_extra"));
  EXPECT_THROW(to_simgrid(machine_preset("cluster"), 0, SimgridCompute::Off), ConfigError);
}

} // namespace
} // namespace mpisim
