// The costs of the target machine as mpilite sees them. Every time of a message, its overheads,
// latency and transfer, comes from one function, MessageTiming::plan, called once per leg of the
// message's protocol; point-to-point, matching and the collectives add no time of their own. A
// network that decides an arrival only later (when messages share links) says so in the plan and
// reports the arrival through Arrivals.
#pragma once

#include <cstddef>
#include <cstdint>

#include "envelope.hpp"
#include "held_back.hpp"

namespace mpilite {

struct Message;

/// The legs a message travels, by its protocol: eager = Eager; synchronous eager = Eager, Ack;
/// rendezvous (and buffered beyond the eager limit) = RequestToSend, ClearToSend, Data.
enum class LegKind : std::uint8_t {
  Eager,         ///< the envelope with the data
  RequestToSend, ///< a rendezvous's envelope alone
  ClearToSend,   ///< the receiver's answer to a request-to-send, once matched
  Ack,           ///< the receiver's acknowledgement of a synchronous eager send, once matched
  Data,          ///< a rendezvous's data, once the clear-to-send is at the sender
};

/// One leg: who sends it to whom, what it carries and when its sender starts it.
struct Leg {
  LegKind kind = LegKind::Eager;
  int from = 0; ///< world ranks: the leg's sender and receiver
  int to = 0;
  std::size_t bytes = 0;              ///< data carried (0 for the control legs)
  SimTime start = 0;                  ///< when its sender starts it, before any overhead
  std::uint64_t seq = 0;              ///< the message's per-sender sequence number (tie-breaks)
  Message* message = nullptr;         ///< Eager: the message, for an arrival decided later
  const DataTransfer* data = nullptr; ///< Data: the transfer, for an arrival decided later
  /// Eager: the send's request when it completes once its bytes have left (0: it completes
  /// otherwise, as a synchronous or buffered send does), for a sender's part decided later.
  std::uint64_t request = 0;
  /// Eager: the sender is the rank's own code, at its clock, or a blocking collective it waits
  /// in, with nothing under way that could still start a leg of its before this one
  /// (Rank::later_legs), and the receiver is on this host process. Every later leg of the
  /// sender then comes after this one, so a network whose sender's part depends only on the
  /// sender's earlier legs may decide that part at once.
  bool in_order = false;
  /// The receiver runs on another host process. A leg the network decides at once (a
  /// RequestToSend, an empty Eager leg) would leave for that host before earlier legs of its
  /// sender that the network decides later, and be matched there before them: such a network
  /// keeps it behind them (planned `later`) and calls Arrivals::release when they have left.
  bool elsewhere = false;
};

/// The times of a leg.
struct LegPlan {
  SimTime leaves = 0;  ///< the sender's overhead is paid and the first byte leaves
  SimTime sent = 0;    ///< the last byte has left: the sender's part is over
  SimTime arrives = 0; ///< the leg is at its receiver (a lower bound when `later`)
  /// The network decides the arrival later (and `sent` of a Data leg with it): it calls
  /// Arrivals::arrived or Arrivals::data_arrived then.
  bool later = false;
  /// The network decides `sent` later too, for an Eager leg with a request and every Data leg
  /// (the last byte leaves once the sender's NIC has sent what came before): it calls
  /// Arrivals::sent then, and `sent` here is a lower bound.
  bool sent_later = false;
  /// How `arrives - leaves` divides (the critical path, docs/observing.md): the leg's latency
  /// (the time of a leg of no bytes alone on the network) and its transfer (what its bytes add
  /// to that); whatever the arrival is later than `leaves + latency + transfer` is contention.
  SimTime latency = 0;
  SimTime transfer = 0;
};

class MessageTiming {
public:
  virtual ~MessageTiming() = default;

  /// The times of `leg`. The one place that adds a message's overheads, latency and transfer
  /// time; a message a rank sends itself costs nothing (a local copy).
  virtual LegPlan plan(const Leg& leg) = 0;
  /// CPU time the receiver spends on a message of `bytes` from `from` once it is there.
  virtual SimTime receive_overhead(int from, int to, std::size_t bytes) const = 0;
  /// What an exchange (MPI_Sendrecv, or a collective's step taken as one) of world rank `rank`
  /// with `dest`, sending `sent` and receiving `received` bytes, costs beyond its two messages.
  virtual SimTime exchange_extra(int rank, int dest, std::size_t sent,
                                 std::size_t received) const = 0;
  /// Largest message a standard send transfers eagerly.
  virtual std::size_t eager_limit() const = 0;
  /// Cost of a test or probe that completes nothing (so polling loops advance time).
  virtual SimTime poll_overhead() const = 0;
  /// Time world rank `rank` spends on one access of `bytes` to a file (MPI-IO) through its node's
  /// path to storage.
  virtual SimTime file_access(int rank, std::size_t bytes) const = 0;
  /// The shortest time in which the shared file system moves `bytes` (a collective access).
  virtual SimTime file_system(std::size_t bytes) const = 0;

  /// Whether a rendezvous's data between host processes is planned at the sender's host, where
  /// its NIC's queue is (the clear-to-send goes there: HostDelivery::transfer_remote), rather
  /// than at the receiver's with the match.
  virtual bool data_at_sender() const { return false; }
  /// An Eager or Data leg that another host process planned `later` has reached the node of its
  /// receiver, a rank of this host, at `at_node` (the frame's stamp): the network decides its
  /// arrival here (Arrivals::arrived or data_arrived, with the leg's message or a copy of its
  /// transfer). Returns a lower bound on that arrival, the eager message's time until then.
  virtual SimTime received_from_host(const Leg& /*leg*/, SimTime at_node) { return at_node; }
};

/// A leg whose arrival the network decided later, or a lower bound on it raised.
struct LaterArrival {
  Message* message = nullptr;
  SimTime at = 0;
};

/// What a network that decides arrivals later may do with the ranks of its host, all stopped.
class Arrivals {
public:
  virtual ~Arrivals() = default;
  /// No stopped rank acts (sends, or decides a receive) before this time without new input.
  virtual SimTime earliest_action() = 0;
  /// An Eager leg planned `later` arrives at `at`; what can be matched now is.
  virtual void arrived(Message& m, SimTime at) = 0;
  /// A hint: the arrival of a message to world rank `rank` is decided next. What that
  /// receiver's side will touch may be fetched into the cache meanwhile.
  virtual void coming(int rank) { (void)rank; }
  /// A Data leg planned `later` arrives at `at`, its last byte having left the sender at `sent`
  /// (the sender's request d.reply_to completes then; a network that completed it already, with
  /// Arrivals::sent, passes a copy without it).
  virtual void data_arrived(const DataTransfer& d, SimTime at, SimTime sent) = 0;
  /// The last byte of a leg planned `sent_later` has left world rank `rank`'s NIC at `at`: its
  /// send `request` completes then (a request that was freed is skipped).
  virtual void sent(int rank, std::uint64_t request, SimTime at) = 0;
  /// Raises the lower bounds of Eager legs still undecided; returns whether any rose (which may
  /// change what their receivers take, and so earliest_action()).
  virtual bool raise(const LaterArrival* bounds, std::size_t n) = 0;
  /// Whether world rank `rank` runs on this host process.
  virtual bool here(int rank) const = 0;
  /// An Eager leg planned `later` for a rank of another host process has left its sender's NIC
  /// and reaches the receiver's node at `at`, where that host decides its arrival.
  virtual void forward(Message& m, SimTime at) = 0;
  /// The same for a Data leg (its sender's part is done: d.reply_to was answered).
  virtual void forward_data(const DataTransfer& d, SimTime at) = 0;
  /// A RequestToSend or empty Eager leg planned `later` only to keep it behind its sender's
  /// earlier legs (Leg::elsewhere) may leave for its receiver's host process: its arrival,
  /// m.ts, is the one planned.
  virtual void release(Message& m) = 0;
};

} // namespace mpilite
