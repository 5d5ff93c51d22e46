// The target network of DESIGN.md's model: per-message overheads, latency, bandwidth and the
// eager limit, on a fully connected network. Exact integer picoseconds.
#pragma once

#include <cstddef>

#include "config.hpp"

namespace mpisim {

class NetworkModel {
public:
  explicit NetworkModel(const MachineParams& m);

  SimTime send_overhead() const { return m_.send_overhead; }
  SimTime recv_overhead() const { return m_.recv_overhead; }
  /// latency + bytes / bandwidth, rounded up to a whole picosecond.
  SimTime transfer(std::size_t bytes) const;
  SimTime latency() const { return m_.latency; }
  std::size_t eager_limit() const { return static_cast<std::size_t>(m_.eager_limit); }
  SimTime poll_overhead() const { return m_.poll_overhead; }

private:
  MachineParams m_;
  double ps_per_byte_;
};

} // namespace mpisim
