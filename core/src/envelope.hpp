// A message's envelope and timing as it travels between host processes: what mpilite hands the
// simulation for a message to another host and what the transport frames, one type for both.
#pragma once

#include <cstdint>

#include "sim_time.hpp"

namespace mpilite {

struct Envelope {
  std::int32_t src = 0, dst = 0; ///< world ranks
  std::int32_t context = 0, tag = 0;
  std::uint64_t seq = 0; ///< the sender's sequence number
  SimTime ts = 0;        ///< the recv timestamp
  std::uint64_t bytes = 0;
  std::uint64_t reply_to = 0;  ///< the sender's request id when the receiver must answer
  std::uint8_t protocol = 0;   ///< mpilite's SendProtocol, checked where it is read back
  std::int32_t partitions = 0; ///< of a partitioned send (0: not partitioned)
};

} // namespace mpilite
