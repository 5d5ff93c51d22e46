// The time a message takes through d links under each switching mode, with PUPPET's link model
// (Table 3.1 of the PUPPET thesis). Exact integer picoseconds.
#pragma once

#include <cstdint>

#include "machine.hpp"

namespace mpisim {

/// ceil(bytes / bandwidth) in picoseconds; 0 for an infinite bandwidth (0). Exact in integers
/// when the bandwidth is a whole number of bytes per second.
SimTime byte_time(std::uint64_t bytes, double bandwidth);

/// Packets of a message of k bytes: max(1, ceil(k / p)), or 1 without packets (p = 0).
std::uint64_t packets(const MachineParams& m, std::uint64_t k);

/// t(k): k bytes across one link, i * packets(k) + k / B (i = packet_overhead).
SimTime link_time(const MachineParams& m, std::uint64_t k);

/// How long a message of s bytes keeps one link (its sender's NIC) busy: its bytes and the
/// overhead of each unit it crosses the link in (its packets; wormhole's flits),
/// i * units + s / B. A message that follows it on the link starts no earlier.
SimTime link_busy(const MachineParams& m, std::uint64_t s);

/// t0(k): a header of k bytes across one link, hop_latency + k / B.
SimTime header_time(const MachineParams& m, std::uint64_t k);

/// Table 3.1, for a message of s bytes over d >= 1 links:
///   store-and-forward  d * t(s)
///   cut-through        d * t0(h) + t(s)
///   circuit            d * t0(c) + t(s)
///   wormhole           (d - 1 + max(1, ceil(s / f))) * t(f)
SimTime switching_time(const MachineParams& m, int d, std::uint64_t s);

} // namespace mpisim
