#include "network_model.hpp"

#include <cmath>

namespace mpisim {

NetworkModel::NetworkModel(const MachineParams& m)
    : m_(m),
      ps_per_byte_(m.bandwidth > 0 ? static_cast<double>(mpilite::kPicosPerSecond) / m.bandwidth
                                   : 0) {}

SimTime NetworkModel::transfer(std::size_t bytes) const {
  if (m_.bandwidth <= 0 || bytes == 0) return m_.latency;
  // ceil(bytes * 1e12 / bandwidth): exact in integers when the bandwidth is a whole number of
  // bytes per second (every preset and unit-suffixed value), so tests can check to the picosecond.
  const double bw = m_.bandwidth;
  if (bw == std::floor(bw) && bw < 1.8e19) {
    const auto b = static_cast<unsigned __int128>(bw);
    const unsigned __int128 num = static_cast<unsigned __int128>(bytes) * mpilite::kPicosPerSecond;
    return m_.latency + static_cast<SimTime>((num + b - 1) / b);
  }
  return m_.latency +
         static_cast<SimTime>(std::ceil(static_cast<long double>(bytes) * ps_per_byte_));
}

} // namespace mpisim
