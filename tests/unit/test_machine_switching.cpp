// The switching formulas of PUPPET's Table 3.1 against values worked out by hand.
#include <gtest/gtest.h>

#include "machine.hpp"
#include "switching.hpp"

namespace {

using mpisim::MachineParams;
using mpisim::SimTime;
using mpisim::Switching;

/// 1 GB/s (1000 ps per byte), 2 us per packet of up to 1000 bytes, 50 ns per header hop,
/// a 16-byte header, a 32-byte control packet and 8-byte flits.
MachineParams links(Switching s) {
  MachineParams m;
  m.latency = 1'000'000;
  m.bandwidth = 1e9;
  m.packet_overhead = 2'000'000;
  m.packet_size = 1000;
  m.hop_latency = 50'000;
  m.header_size = 16;
  m.control_size = 32;
  m.flit_size = 8;
  m.switching = s;
  return m;
}

TEST(Switching, ByteTimeRoundsUpToWholePicoseconds) {
  EXPECT_EQ(mpisim::byte_time(0, 1e9), 0);
  EXPECT_EQ(mpisim::byte_time(2500, 1e9), 2'500'000);
  EXPECT_EQ(mpisim::byte_time(1, 3e9), 334); // 333.3 ps
  EXPECT_EQ(mpisim::byte_time(3, 3e9), 1000);
  EXPECT_EQ(mpisim::byte_time(1 << 20, 0), 0); // infinite bandwidth
}

TEST(Switching, ByteTimeIsExactWhereBytesTimesPicosecondsLeave64Bits) {
  // 18 446 744 bytes * 1e12 still fits in 64 bits, with the rounding term as well...
  EXPECT_EQ(mpisim::byte_time(18'446'744, 3e9), 6'148'914'667);
  // ...one byte more does not, and neither does the rounding term of a fast link.
  EXPECT_EQ(mpisim::byte_time(18'446'745, 3e9), 6'148'915'000);
  EXPECT_EQ(mpisim::byte_time(18'446'744, 1.8e11), 102'481'912);
}

TEST(Switching, LinkTimeCountsPackets) {
  const MachineParams m = links(Switching::CutThrough);
  EXPECT_EQ(mpisim::packets(m, 0), 1u); // a header-only message is still one packet
  EXPECT_EQ(mpisim::packets(m, 1000), 1u);
  EXPECT_EQ(mpisim::packets(m, 2500), 3u);
  // t(2500) = 3 packets * 2 us + 2500 bytes * 1 ns
  EXPECT_EQ(mpisim::link_time(m, 2500), 8'500'000);
  EXPECT_EQ(mpisim::link_time(m, 0), 2'000'000);
  // t0(16) = 50 ns + 16 ns
  EXPECT_EQ(mpisim::header_time(m, 16), 66'000);
  MachineParams unpacketized = m;
  unpacketized.packet_size = 0; // one packet whatever the size: t(k) = i + k / B
  EXPECT_EQ(mpisim::link_time(unpacketized, 2500), 4'500'000);
}

TEST(Switching, StoreAndForwardPaysTheWholeMessageOnEveryLink) {
  // d * t(s) = 3 * 8.5 us
  EXPECT_EQ(mpisim::switching_time(links(Switching::StoreAndForward), 3, 2500), 25'500'000);
  EXPECT_EQ(mpisim::switching_time(links(Switching::StoreAndForward), 1, 2500), 8'500'000);
}

TEST(Switching, CutThroughPaysTheHeaderOnEveryLink) {
  // d * t0(h) + t(s) = 3 * 66 ns + 8.5 us
  EXPECT_EQ(mpisim::switching_time(links(Switching::CutThrough), 3, 2500), 8'698'000);
}

TEST(Switching, CircuitPaysTheControlPacketOnEveryLink) {
  // d * t0(c) + t(s) = 3 * (50 ns + 32 ns) + 8.5 us
  EXPECT_EQ(mpisim::switching_time(links(Switching::Circuit), 3, 2500), 8'746'000);
}

TEST(Switching, WormholePipelinesFlits) {
  MachineParams m = links(Switching::Wormhole);
  m.packet_overhead = 0;
  // (d - 1 + ceil(s / f)) * t(f) = (2 + 313) * 8 ns
  EXPECT_EQ(mpisim::switching_time(m, 3, 2500), 315 * 8'000);
  // A zero-byte message is one flit: (d - 1 + 1) * t(f).
  EXPECT_EQ(mpisim::switching_time(m, 4, 0), 4 * 8'000);
  // With the per-packet initialization every flit pays it: t(8) = 2 us + 8 ns.
  EXPECT_EQ(mpisim::switching_time(links(Switching::Wormhole), 3, 2500), 315 * 2'008'000);
}

TEST(Switching, DistanceMattersLessForPipelinedModes) {
  // One more link costs a whole message under store-and-forward, a header hop under
  // cut-through and circuit switching, and one flit under wormhole routing.
  const std::uint64_t s = 4000;
  auto extra = [s](Switching mode) {
    MachineParams m = links(mode);
    m.packet_overhead = 0;
    return mpisim::switching_time(m, 5, s) - mpisim::switching_time(m, 4, s);
  };
  EXPECT_EQ(extra(Switching::StoreAndForward), 4'000'000);
  EXPECT_EQ(extra(Switching::CutThrough), 66'000);
  EXPECT_EQ(extra(Switching::Circuit), 82'000);
  EXPECT_EQ(extra(Switching::Wormhole), 8'000);
}

TEST(Switching, DefaultsAreLatencyPlusBytesOverBandwidth) {
  // A default machine (cut-through, no hop latency, no header, no packet overhead) gives one
  // link the time the fully connected model always had: n / B.
  MachineParams m;
  m.bandwidth = 12e9;
  EXPECT_EQ(mpisim::switching_time(m, 1, 4), 334); // 4 B at 12 GB/s = 333.3 ps
  EXPECT_EQ(mpisim::switching_time(m, 1, 0), 0);
}

} // namespace
