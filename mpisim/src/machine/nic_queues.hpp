// MPISIM_NETWORK=nic: each node's network interface sends one message's bytes after another at
// the link's bandwidth, first come first served, and delivers one message's bytes after another
// the same way (LogGP's gap per byte at both ends). A message between nodes so waits for what its
// node's NIC sends before it, and for what the receiving node's NIC delivers before it; messages
// inside a node go through memory and skip both.
//
// Which message comes first is decided in simulated time, not in the order the host happens to
// run the ranks: a leg is planned `later`, and it is injected only once no rank can still start
// one that would come before it (its time is below the earliest action of every stopped rank),
// and delivered only once no leg still to be injected could reach its receiver first.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "link_costs.hpp"
#include "message_timing.hpp"

namespace mpisim {

class NicQueues {
public:
  explicit NicQueues(const LinkCosts& costs);

  /// A leg planned `alone` as if the NICs were free: an Eager or Data leg that carries bytes
  /// to another node joins its sender's queue, and true says its times are decided later.
  bool carry(const mpilite::Leg& leg, const mpilite::LegPlan& alone);

  /// With every rank of the host stopped: injects and delivers the legs whose turn is final.
  /// Returns true when it decided something (ranks may run; call again once they stop);
  /// otherwise sets `bound` to a lower bound on every arrival still undecided (kTimeInfinity
  /// when none).
  bool settle(mpilite::Arrivals& arrivals, SimTime& bound);

private:
  struct Leg {
    mpilite::Message* message = nullptr; ///< an eager message, or
    mpilite::DataTransfer data;          ///< rendezvous data
    std::uint64_t request = 0;           ///< the eager send that completes once sent
    int src = 0, dst = 0;
    std::uint64_t seq = 0;
    std::uint8_t kind = 0;
    SimTime leaves = 0;        ///< ready at the sender's NIC
    SimTime work = 0;          ///< how long its bytes occupy a NIC
    SimTime alone_arrives = 0; ///< its arrival were both NICs free
    SimTime alone_sent = 0;    ///< its sender's part done were its NIC free
    SimTime at_receiver = 0;   ///< its arrival once injected, before the receiving NIC
    bool injected = false;
    bool used = false; ///< the slot holds a leg not delivered yet
  };
  /// A leg's place in a queue: by time, then by sender, its sequence and kind, so that the
  /// order is the same whatever order the host ran the ranks in.
  struct Turn {
    SimTime t;
    int src;
    std::uint64_t seq;
    std::uint8_t kind;
    std::size_t slot;
    bool operator>(const Turn& o) const {
      if (t != o.t) return t > o.t;
      if (src != o.src) return src > o.src;
      if (seq != o.seq) return seq > o.seq;
      return kind > o.kind;
    }
  };
  using Queue = std::priority_queue<Turn, std::vector<Turn>, std::greater<>>;

  /// Injects the first leg of the send queue: returns when its sender's part is done.
  SimTime inject(mpilite::Arrivals& arrivals);
  /// Delivers the first leg of the receive queue: returns its arrival.
  SimTime deliver(mpilite::Arrivals& arrivals);
  /// Raises the lower bounds of the eager messages still undecided; sets `bound` to the least.
  bool raise(mpilite::Arrivals& arrivals, SimTime& bound);
  std::size_t store(const Leg& leg);

  const LinkCosts& costs_;
  std::vector<SimTime> sending_until_;    ///< per node: its NIC's last byte sent so far
  std::vector<SimTime> delivering_until_; ///< per node: its NIC's last byte delivered so far
  Queue to_send_;                         ///< legs not injected yet, by when they are ready
  Queue to_deliver_;                      ///< injected legs, by when they reach the receiver
  std::vector<Leg> legs_;                 ///< by Turn::slot; entries are reused
  std::vector<std::size_t> free_slots_;
};

} // namespace mpisim
