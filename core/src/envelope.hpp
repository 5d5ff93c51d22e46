// A message's envelope and timing as it travels between host processes, and a rendezvous's data:
// what mpilite hands the simulation for another host and what the transport frames, one type for
// both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

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
  /// The receiving node's NIC still decides the arrival (MPISIM_NETWORK=nic): ts is when the
  /// message reaches that node, a lower bound on its arrival.
  bool pending = false;
  /// Bytes of the sender's critical path (MPISIM_CRITICAL_PATH) that follow the payload in a
  /// frame (0: none).
  std::uint32_t path_bytes = 0;
};

/// MPISIM_CRITICAL_PATH: the critical path (mpilite's CritPath, encoded) of a rendezvous's data
/// at its start, and how its leg's plan divides, set when the leg is planned. The copies of a
/// transfer that the network keeps share it.
struct DataPath {
  std::vector<std::byte> start;
  SimTime latency = 0;
  SimTime transfer = 0;
};

/// The data of a matched rendezvous (or buffered) send on its way to the receiver.
struct DataTransfer {
  int src = 0; ///< world ranks
  int dst = 0;
  std::uint64_t recv_request = 0; ///< the receive's request id
  std::uint64_t reply_to = 0;     ///< the sender's request id (0: none, as for MPI_Bsend)
  std::uint64_t seq = 0;          ///< the message's per-sender sequence number
  std::size_t bytes = 0;
  SimTime start = 0; ///< when the data leaves the sender (the clear-to-send has arrived)
  std::shared_ptr<DataPath> path; ///< null: MPISIM_CRITICAL_PATH is off
};

/// A rendezvous between host processes under a network that plans the data at its sender's host,
/// where the sender's NIC queue is (MessageTiming::data_at_sender): the clear-to-send goes to the
/// sender's host, then the data to the receiver's.
struct Transfer {
  DataTransfer data;
  /// The clear-to-send (ts: its arrival at the sender, data.start), or else the data (ts: its
  /// arrival, or when it reaches the receiving node when `pending`).
  bool clear_to_send = false;
  /// The receiving node's NIC still decides the data's arrival.
  bool pending = false;
  SimTime ts = 0;
};

} // namespace mpilite
