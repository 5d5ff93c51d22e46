#include "switching.hpp"

#include <cmath>

namespace mpisim {

SimTime byte_time(std::uint64_t bytes, double bandwidth) {
  if (bandwidth <= 0 || bytes == 0) return 0;
  if (bandwidth == std::floor(bandwidth) && bandwidth < 1.8e19) {
    const auto b = static_cast<unsigned __int128>(bandwidth);
    const unsigned __int128 num = static_cast<unsigned __int128>(bytes) * mpilite::kPicosPerSecond;
    return static_cast<SimTime>((num + b - 1) / b);
  }
  return static_cast<SimTime>(std::ceil(static_cast<long double>(bytes) *
                                        static_cast<long double>(mpilite::kPicosPerSecond) /
                                        static_cast<long double>(bandwidth)));
}

std::uint64_t packets(const MachineParams& m, std::uint64_t k) {
  if (m.packet_size == 0 || k <= m.packet_size) return 1;
  return (k + m.packet_size - 1) / m.packet_size;
}

SimTime link_time(const MachineParams& m, std::uint64_t k) {
  return m.packet_overhead * static_cast<SimTime>(packets(m, k)) + byte_time(k, m.bandwidth);
}

SimTime header_time(const MachineParams& m, std::uint64_t k) {
  return m.hop_latency + byte_time(k, m.bandwidth);
}

SimTime switching_time(const MachineParams& m, int d, std::uint64_t s) {
  const auto links = static_cast<SimTime>(d);
  switch (m.switching) {
  case Switching::StoreAndForward:
    return links * link_time(m, s);
  case Switching::CutThrough:
    return links * header_time(m, m.header_size) + link_time(m, s);
  case Switching::Circuit:
    return links * header_time(m, m.control_size) + link_time(m, s);
  case Switching::Wormhole: {
    const std::uint64_t flits = s == 0 ? 1 : (s + m.flit_size - 1) / m.flit_size;
    return (links - 1 + static_cast<SimTime>(flits)) * link_time(m, m.flit_size);
  }
  }
  return 0;
}

} // namespace mpisim
