// The interface mpilite needs from the simulation kernel (implemented by mpisim): the target
// machine's costs, compute charging, delivery to other host processes and synchronization.
#pragma once

#include <cstddef>

#include "sim_time.hpp"

namespace mpilite {

struct Rank;
struct Message;
struct Reply;
struct DataTransfer;

class Kernel {
public:
  virtual ~Kernel() = default;

  /// CPU time the sender / receiver spends on a message of `bytes` between world ranks.
  virtual SimTime send_overhead(int src, int dst, std::size_t bytes) const = 0;
  virtual SimTime recv_overhead(int src, int dst, std::size_t bytes) const = 0;
  /// CPU time an MPI_Sendrecv of world rank `rank` that sends `sent` bytes to world rank `dst` and
  /// receives `received` bytes costs it beyond the send and receive overheads and the transfers.
  virtual SimTime sendrecv_extra(int /*rank*/, int /*dst*/, std::size_t /*sent*/,
                                 std::size_t /*received*/) const {
    return 0;
  }
  /// Time from injection of the first byte to arrival of `bytes` bytes (latency + bytes /
  /// bandwidth); transfer(src, dst, 0) is the latency of a header-only control message.
  virtual SimTime transfer(int src, int dst, std::size_t bytes) const = 0;
  /// Largest message a standard send transfers eagerly.
  virtual std::size_t eager_limit() const = 0;
  /// Simulated cost of a test or probe that completes nothing (so polling loops advance time).
  virtual SimTime poll_overhead() const = 0;
  /// Time world rank `rank` spends on one access of `bytes` bytes to a file (MPI-IO) through its
  /// node's path to storage; the shared file system's limit applies to collective accesses only.
  virtual SimTime file_access(int /*rank*/, std::size_t /*bytes*/) const { return 0; }
  /// The shortest time in which the shared file system moves `bytes` bytes (all ranks of a
  /// collective access together).
  virtual SimTime file_system(std::size_t /*bytes*/) const { return 0; }
  /// Smallest latency between any two ranks: the static lookahead.
  virtual SimTime min_latency() const = 0;
  /// Deterministic mode: receives that name their source complete without a time bound.
  virtual bool deterministic() const = 0;
  /// Determinism of the second kind: the one world rank that ever sends on (context, dst, tag),
  /// so that a wildcard receive there completes as if it named it; -1 when none is promised.
  /// Called for every wildcard receive with a tag that waits for a decision.
  virtual int single_source(int /*context*/, int /*dst*/, int /*tag*/) { return -1; }

  /// Entry and exit of an MPI call of `rank`: compute time in between is charged to its clock.
  virtual void enter_mpi(Rank& rank) = 0;
  virtual void leave_mpi(Rank& rank) = 0;

  /// Whether world rank `r` lives in this host process.
  virtual bool is_local(int world_rank) const = 0;
  /// Hands a message for a rank of another host process to the transport.
  virtual void send_remote(Message* m) = 0;
  /// Hands the reply to a synchronous or rendezvous send of another host process to the transport.
  virtual void reply_remote(const Reply& reply) = 0;

  /// Whether poll() has anything to do (work may arrive from other host processes).
  virtual bool polls() const { return false; }
  /// Takes in what other host processes sent, while ranks of this host keep running.
  virtual void poll() {}
  /// A message leaves its sender at `injected` carrying `data_bytes` of data (0 for a
  /// request-to-send). A network with contention may mark it pending (its ts then only a lower
  /// bound) and settle it later with settle_message().
  virtual void on_send(Message&, SimTime /*injected*/, std::size_t /*data_bytes*/) {}
  /// A receive of world rank `dst` matched message `m` at simulated time `t_match` (timelines).
  virtual void on_receive(const Message& /*m*/, int /*dst*/, SimTime /*t_match*/) {}
  /// The data of a matched rendezvous leaves its sender at d.start. Returns true when the kernel
  /// decides its arrival later (contention) and will call finish_data(); false for the usual
  /// arrival at d.start + transfer(d.src, d.dst, d.bytes).
  virtual bool defer_data(const DataTransfer&) { return false; }

  /// Called when no rank of this host can run: advance time bounds, poll other hosts, and wake
  /// ranks that may proceed. Returns false when no rank can ever proceed again (deadlock).
  virtual bool idle() = 0;
};

} // namespace mpilite
