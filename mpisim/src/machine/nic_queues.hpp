// MPISIM_NETWORK=nic: each node's network interface sends one message's bytes after another at
// the link's bandwidth, first come first served, and delivers one message's bytes after another
// the same way (LogGP's gap per byte at both ends). A message between nodes so waits for what its
// node's NIC sends before it, and for what the receiving node's NIC delivers before it. Messages
// inside a node go through memory, where each rank copies one message after another at the
// intra-node bandwidth, out and in alike: a rank's memory port is its NIC for them.
//
// Which message comes first is decided in simulated time, not in the order the host happens to
// run the ranks: a leg is planned `later`, and it is injected only once no rank can still start
// one that would come before it (its time is below the earliest action of every stopped rank),
// and delivered only once no leg still to be injected could reach its receiver first.
//
// On several host processes each node is whole on one host, which keeps its NIC's queues: a leg
// to a rank of another host is injected where it is sent, then leaves as a frame stamped with
// when it reaches the receiver's node, where that host delivers it in turn once no frame from
// elsewhere can still come before it.
#pragma once

#include <cstdint>
#include <vector>

#include "link_costs.hpp"
#include "message_timing.hpp"
#include "slot_pool.hpp"
#include "sorted_run_queue.hpp"

namespace mpisim {

class NicQueues {
public:
  explicit NicQueues(const LinkCosts& costs);

  /// A leg planned `alone` (`plan`) as if the NICs were free: an Eager or Data leg that carries
  /// bytes to another rank joins its sender's queue, and true says its arrival is decided later.
  /// Its sender's part is decided later too (plan.sent_later), except for an in-order leg
  /// (Leg::in_order) of a node with one rank and nothing waiting at its NIC: the NIC sends such
  /// a leg after everything it sent before and before anything its rank sends after, so it is
  /// injected at once, plan.sent set, and the sender need not stop for the queues' turn. A
  /// RequestToSend or an empty Eager leg to another host process may wait for its turn too
  /// (keep_behind).
  bool carry(const mpilite::Leg& leg, mpilite::LegPlan& plan);

  /// A leg that another host process planned `later` reaches the node of its receiver, a rank
  /// of this host, its first byte at `first_byte` (the frame's stamp): it joins that node's
  /// delivery queue. Returns when its last byte would be there, a lower bound on its arrival.
  SimTime received(const mpilite::Leg& leg, SimTime first_byte);

  /// With every rank of the host stopped, and no leg from another host process reaching a node
  /// before `remote`: injects and delivers the legs whose turn is final. Returns true when it
  /// decided something (ranks may run; call again once they stop).
  bool settle(mpilite::Arrivals& arrivals, SimTime remote);
  /// What it still holds, once settle() decides nothing more.
  mpilite::HeldBack held(mpilite::Arrivals& arrivals) const;

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
    SimTime sent = 0; ///< its sender's part done: were its NIC free until injected, then decided
    SimTime at_receiver = 0; ///< its arrival once injected, before the receiving NIC
    bool injected = false;
    bool kept_behind = false; ///< keep_behind: its times are final, it only waits to leave
  };
  /// A leg's place in a queue: by time, then by sender, its sequence and kind, so that the
  /// order is the same whatever order the host ran the ranks in. Packed into 24 bytes: these
  /// queues are the hottest data of a run with many messages between nodes.
  struct Turn {
    SimTime t;
    std::uint32_t src;
    std::uint32_t slot;
    std::uint64_t seq_kind; ///< the sequence number above the kind's 8 bits
    /// The turn of leg `l` (in `slot`) at time `t`.
    static Turn of(SimTime t, const Leg& l, std::size_t slot);
    bool operator>(const Turn& o) const {
      if (t != o.t) return t > o.t;
      if (src != o.src) return src > o.src;
      return seq_kind > o.seq_kind;
    }
  };
  using Queue = SortedRunQueue<Turn>;

  /// A leg of `work` in the queues, from what mpilite says of it, in a slot of its own (its
  /// number in `slot`).
  Leg& new_leg(const mpilite::Leg& leg, SimTime work, std::size_t& slot);
  /// A request to send or an empty eager message to another host process (Leg::elsewhere),
  /// which occupies no NIC, waits behind the legs its sender's NIC still holds, so that it
  /// leaves after them (Arrivals::release); false when none waits, and it leaves at once.
  bool keep_behind(const mpilite::Leg& leg, mpilite::LegPlan& plan);
  /// Injects the first leg of the send queue: returns when its sender's part is done.
  SimTime inject(mpilite::Arrivals& arrivals);
  /// Sends `l` from its node's NIC once the NIC has sent what it sent before; returns when its
  /// first byte reaches the receiver's node, its turn there.
  SimTime start_injection(Leg& l);
  /// Delivers the first leg of the receive queue: returns its arrival.
  SimTime deliver(mpilite::Arrivals& arrivals);
  /// A lower bound on the arrival of `l`, from what its NICs have done so far.
  SimTime lower_bound(const Leg& l) const;
  /// Raises the lower bounds of the eager messages still undecided.
  bool raise(mpilite::Arrivals& arrivals);
  /// No leg still to be injected here reaches its receiver before this.
  SimTime injected_before() const;
  /// When the first leg still to be delivered reaches its receiver (kTimeInfinity: none).
  SimTime next_delivery() const;
  /// Whether the first leg to deliver has its turn, as far as this host's ranks and NICs say.
  bool deliverable(SimTime act) const;

  /// A node's NIC, or a rank's memory port.
  struct Nic {
    SimTime sending_until = 0;    ///< its last byte sent so far
    SimTime delivering_until = 0; ///< its last byte delivered so far
    /// The latest ready time of a leg injected in order (carry): a leg of the node's ready
    /// before it would have been sent first, and is refused rather than mispredicted.
    SimTime in_order_upto = 0;
    std::uint32_t waiting = 0; ///< its legs in to_send_
  };
  /// The port a leg from `src` to `dst` leaves by (in: enters by): the rank's memory port inside
  /// a node, its node's NIC otherwise.
  std::size_t port(int rank, int src, int dst) const {
    const int node = costs_.node_of(rank);
    if (one_rank_per_node_ || node != costs_.node_of(src == rank ? dst : src))
      return static_cast<std::size_t>(node);
    return static_cast<std::size_t>(nodes_ + rank);
  }
  Nic& out_port(int src, int dst) { return nics_[port(src, src, dst)]; }
  const Nic& out_port(int src, int dst) const { return nics_[port(src, src, dst)]; }
  Nic& in_port(int src, int dst) { return nics_[port(dst, src, dst)]; }
  const Nic& in_port(int src, int dst) const { return nics_[port(dst, src, dst)]; }
  /// Whether the port a leg leaves by sends only `src`'s legs.
  bool sole_sender(int src, int dst) const {
    return one_rank_per_node_ || costs_.node_of(src) == costs_.node_of(dst);
  }

  const LinkCosts& costs_;
  const bool one_rank_per_node_;
  const int nodes_;
  std::vector<Nic> nics_; ///< per node, then per rank when nodes hold several
  Queue to_send_;         ///< legs not injected yet, by when they are ready
  Queue to_deliver_;      ///< injected legs, by when their first byte reaches the receiver
  SlotPool<Leg> legs_;    ///< legs not delivered yet, by Turn::slot
};

} // namespace mpisim
