#include "switching.hpp"

#include <algorithm>
#include <cmath>

namespace mpisim {

namespace {

// Times saturate at kTimeInfinity: a huge message on a slow link is then caught, with its
// sender named, when its timestamp passes the limit (p2p.cpp), rather than overflowing here.
template <class T> SimTime saturated(T t) {
  return t >= static_cast<T>(mpilite::kTimeInfinity) ? mpilite::kTimeInfinity
                                                     : static_cast<SimTime>(t);
}

} // namespace

SimTime byte_time(std::uint64_t bytes, double bandwidth) {
  if (bandwidth <= 0 || bytes == 0) return 0;
  if (bandwidth == std::floor(bandwidth) && bandwidth < 1.8e19) {
    // Every message costs one or more of these: a 64-bit division when the product fits, which
    // gives the same quotient as the 128-bit one at a fraction of its cost.
    const auto b64 = static_cast<std::uint64_t>(bandwidth);
    std::uint64_t num64 = 0;
    if (!__builtin_mul_overflow(bytes, static_cast<std::uint64_t>(mpilite::kPicosPerSecond),
                                &num64) &&
        !__builtin_add_overflow(num64, b64 - 1, &num64))
      return saturated(num64 / b64);
    const auto b = static_cast<unsigned __int128>(b64);
    const unsigned __int128 num = static_cast<unsigned __int128>(bytes) * mpilite::kPicosPerSecond;
    return saturated((num + b - 1) / b);
  }
  return saturated(std::ceil(static_cast<long double>(bytes) *
                             static_cast<long double>(mpilite::kPicosPerSecond) /
                             static_cast<long double>(bandwidth)));
}

std::uint64_t packets(const MachineParams& m, std::uint64_t k) {
  if (m.packet_size == 0 || k <= m.packet_size) return 1;
  return (k + m.packet_size - 1) / m.packet_size;
}

SimTime link_time(const MachineParams& m, std::uint64_t k) {
  const auto n =
      static_cast<SimTime>(std::min<std::uint64_t>(packets(m, k), mpilite::kTimeInfinity));
  return mpilite::saturating_add(mpilite::saturating_mul(n, m.packet_overhead),
                                 byte_time(k, m.bandwidth));
}

namespace {

/// Wormhole's flits of a message of s bytes: max(1, ceil(s / f)).
std::uint64_t flits(const MachineParams& m, std::uint64_t s) {
  return s == 0 ? 1 : (s + m.flit_size - 1) / m.flit_size;
}

} // namespace

SimTime link_busy(const MachineParams& m, std::uint64_t s) {
  const std::uint64_t units = m.switching == Switching::Wormhole ? flits(m, s) : packets(m, s);
  const auto n = static_cast<SimTime>(std::min<std::uint64_t>(units, mpilite::kTimeInfinity));
  return mpilite::saturating_add(mpilite::saturating_mul(n, m.packet_overhead),
                                 byte_time(s, m.bandwidth));
}

SimTime header_time(const MachineParams& m, std::uint64_t k) {
  return mpilite::saturating_add(m.hop_latency, byte_time(k, m.bandwidth));
}

SimTime switching_time(const MachineParams& m, int d, std::uint64_t s) {
  using mpilite::saturating_add;
  using mpilite::saturating_mul;
  const auto links = static_cast<SimTime>(d);
  switch (m.switching) {
  case Switching::StoreAndForward:
    return saturating_mul(links, link_time(m, s));
  case Switching::CutThrough:
    return saturating_add(saturating_mul(links, header_time(m, m.header_size)), link_time(m, s));
  case Switching::Circuit:
    return saturating_add(saturating_mul(links, header_time(m, m.control_size)), link_time(m, s));
  case Switching::Wormhole: {
    const auto n =
        static_cast<SimTime>(std::min<std::uint64_t>(flits(m, s), mpilite::kTimeInfinity));
    return saturating_mul(links - 1 + n, link_time(m, m.flit_size));
  }
  }
  return 0;
}

} // namespace mpisim
