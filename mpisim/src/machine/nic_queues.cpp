#include "nic_queues.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace mpisim {

using mpilite::kTimeInfinity;
using mpilite::LegKind;

NicQueues::NicQueues(const LinkCosts& costs)
    : costs_(costs), one_rank_per_node_(costs.machine().ranks_per_node == 1),
      nodes_(costs.node_of(costs.ranks() - 1) + 1),
      nics_(static_cast<std::size_t>(nodes_ + (one_rank_per_node_ ? 0 : costs.ranks()))) {}

NicQueues::Leg& NicQueues::new_leg(const mpilite::Leg& leg, SimTime work, std::size_t& slot) {
  Leg& l = legs_.fresh(slot);
  if (leg.kind == LegKind::Eager || leg.kind == LegKind::RequestToSend) {
    l.message = leg.message;
    l.request = leg.request;
  } else {
    l.data = *leg.data;
  }
  l.src = leg.from;
  l.dst = leg.to;
  l.seq = leg.seq;
  l.kind = static_cast<std::uint8_t>(leg.kind);
  l.work = work;
  return l;
}

NicQueues::Turn NicQueues::Turn::of(SimTime t, const Leg& l, std::size_t slot) {
  // Beyond these a packed turn would order legs wrongly: refuse rather than mispredict.
  if (l.seq >= (std::uint64_t{1} << 56) || slot > UINT32_MAX)
    throw std::runtime_error(
        "the NIC model's queues overflowed (a sender's 2^56th message, or 2^32 legs under way)");
  return {t, static_cast<std::uint32_t>(l.src), static_cast<std::uint32_t>(slot),
          l.seq << 8 | l.kind};
}

bool NicQueues::carry(const mpilite::Leg& leg, mpilite::LegPlan& plan) {
  if (leg.kind == LegKind::RequestToSend) return keep_behind(leg, plan);
  if (leg.kind != LegKind::Eager && leg.kind != LegKind::Data) return false;
  const SimTime work = costs_.injection(leg.from, leg.to, leg.bytes);
  // A message to itself, or no bytes to send (or an infinitely fast link): no port is involved.
  // But an empty message to another host process must not leave before its sender's earlier
  // ones still at the NIC: it would be matched there before them.
  if (work <= 0) return leg.kind == LegKind::Eager && keep_behind(leg, plan);
  std::size_t slot = 0;
  Leg& l = new_leg(leg, work, slot);
  l.leaves = plan.leaves;
  l.alone_arrives = plan.arrives;
  l.sent = leg.kind == LegKind::Eager ? plan.leaves + work : plan.sent;
  Nic& nic = out_port(leg.from, leg.to);
  if (l.leaves < nic.in_order_upto)
    throw std::logic_error(fmt::format(
        "internal error: the NIC model sent a leg of rank {} ready at {} ps as in order (no "
        "earlier one could follow), and rank {} now starts one ready at {} ps; please report "
        "the program",
        leg.from, nic.in_order_upto, leg.from, l.leaves));
  if (leg.in_order && sole_sender(leg.from, leg.to) && nic.waiting == 0) {
    // The same decision as inject() makes at the queues' turn: only this port's earlier legs,
    // all sent, come before it, and only its rank's later ones, which come after.
    nic.in_order_upto = l.leaves;
    const SimTime first_byte = start_injection(l);
    // Only a send done once its bytes have left waits for its NIC (inject() tells no other).
    if (leg.request) plan.sent = l.sent;
    to_deliver_.push(Turn::of(first_byte, l, slot));
    return true;
  }
  ++nic.waiting;
  plan.sent_later = true;
  to_send_.push(Turn::of(l.leaves, l, slot));
  return true;
}

bool NicQueues::keep_behind(const mpilite::Leg& leg, mpilite::LegPlan& plan) {
  // Its times are final (a request to send occupies no NIC), and on this host process matching
  // keeps it behind its sender's earlier messages. Sent to another one now, it would be there
  // before those still waiting here, and be matched first: it waits for its turn after them,
  // which changes when it leaves, not its times.
  Nic& nic = out_port(leg.from, leg.to);
  if (!leg.elsewhere || nic.waiting == 0) return false;
  std::size_t slot = 0;
  Leg& l = new_leg(leg, 0, slot);
  l.leaves = plan.leaves;
  l.alone_arrives = plan.arrives;
  l.sent = plan.sent;
  l.kept_behind = true;
  // An empty eager send is done at its planned time, but told so only when the leg leaves: its
  // rank must not end (and its host stop settling) while the leg still waits here.
  if (l.request) plan.sent_later = true;
  ++nic.waiting;
  to_send_.push(Turn::of(l.leaves, l, slot));
  return true;
}

SimTime NicQueues::start_injection(Leg& l) {
  SimTime& free_at = out_port(l.src, l.dst).sending_until;
  const SimTime start = std::max(l.leaves, free_at);
  const SimTime delay = start - l.leaves;
  free_at = start + l.work;
  l.sent = std::max(l.sent + delay, free_at);
  l.at_receiver = l.alone_arrives + delay;
  l.injected = true;
  // The receiving NIC takes messages in the order their first bytes reach it: a long message
  // already streaming in is not overtaken by a short one that ends before it.
  return l.at_receiver - l.work;
}

SimTime NicQueues::inject(mpilite::Arrivals& arrivals) {
  const std::size_t slot = to_send_.top().slot;
  to_send_.pop();
  Leg& l = legs_[slot];
  --out_port(l.src, l.dst).waiting;
  if (l.kept_behind) { // no rank wakes, but the sender of an empty eager message
    mpilite::Message& message = *l.message;
    const int sender = l.src;
    const std::uint64_t request = l.request;
    const SimTime sent = l.sent;
    legs_.release(slot);
    arrivals.release(message);
    if (!request) return kTimeInfinity;
    arrivals.sent(sender, request, sent);
    return sent;
  }
  const SimTime first_byte = start_injection(l);
  // What the ranks are told comes last: it may make them plan new legs, which moves legs_, so
  // what it needs is taken out first.
  // The sender's part ends here: the arrival completes only the receive.
  const std::uint64_t sender_waits = std::exchange(l.data.reply_to, 0);
  mpilite::Message* const message = l.message;
  const std::uint64_t request = l.request;
  const int sender = message ? l.src : l.data.src;
  const SimTime sent = l.sent;
  const bool here = arrivals.here(l.dst);
  std::optional<mpilite::DataTransfer> data_away;
  if (here) {
    to_deliver_.push(Turn::of(first_byte, l, slot));
  } else { // the receiver's host decides the arrival (received), stamped with its first byte
    if (!message) data_away = std::move(l.data);
    legs_.release(slot);
  }
  // The leg leaves for another host before its sender is told: a rank (or a collective's next
  // step) woken by `sent` may send again at once, and a leg of no bytes leaves at once too; it
  // must reach that host after this one, or be matched before it.
  if (!here && message) arrivals.forward(*message, first_byte);
  if (data_away) arrivals.forward_data(*data_away, first_byte);
  if (message && request) arrivals.sent(sender, request, sent);
  if (!message && sender_waits) arrivals.sent(sender, sender_waits, sent);
  return sent;
}

SimTime NicQueues::received(const mpilite::Leg& leg, SimTime first_byte) {
  std::size_t slot = 0;
  Leg& l = new_leg(leg, costs_.injection(leg.from, leg.to, leg.bytes), slot);
  l.at_receiver = first_byte + l.work;
  l.injected = true;
  to_deliver_.push(Turn::of(first_byte, l, slot));
  return l.at_receiver;
}

SimTime NicQueues::deliver(mpilite::Arrivals& arrivals) {
  const std::size_t slot = to_deliver_.top().slot;
  to_deliver_.pop();
  // Settling delivers legs in a row: the receiver of the next one is told now, so that its
  // state (cold at a thousand ranks) is on its way while this one is matched.
  if (!to_deliver_.empty()) arrivals.coming(legs_[to_deliver_.top().slot].dst);
  Leg& l = legs_[slot];
  legs_.release(slot);
  SimTime& free_at = in_port(l.src, l.dst).delivering_until;
  const SimTime arrival = std::max(l.at_receiver, free_at + l.work);
  free_at = arrival;
  // The receiver may plan new legs, which reuses the slot or moves legs_: what the call needs
  // is taken out first.
  if (mpilite::Message* m = l.message) {
    arrivals.arrived(*m, arrival);
  } else {
    const mpilite::DataTransfer data = std::move(l.data);
    arrivals.data_arrived(data, arrival, l.sent);
  }
  return arrival;
}

SimTime NicQueues::lower_bound(const Leg& l) const {
  if (l.kept_behind) return l.alone_arrives;
  // A leg waits for what its sender's NIC has sent so far, then for what the receiver's has
  // delivered: its arrival is at least what that gives, were nothing else to come before it.
  SimTime low = l.at_receiver;
  if (!l.injected) {
    const SimTime sender_free = out_port(l.src, l.dst).sending_until;
    low = l.alone_arrives + std::max<SimTime>(0, sender_free - l.leaves);
  }
  return std::max(low, in_port(l.src, l.dst).delivering_until + l.work);
}

bool NicQueues::raise(mpilite::Arrivals& arrivals) {
  std::vector<mpilite::LaterArrival> raised;
  legs_.for_each([&](const Leg& l) {
    if (l.message) raised.push_back({l.message, lower_bound(l)});
  });
  return arrivals.raise(raised.data(), raised.size());
}

SimTime NicQueues::injected_before() const {
  // Every leg still to be injected reaches its receiver (its first byte does) a latency after it
  // is ready.
  return to_send_.empty() ? kTimeInfinity
                          : mpilite::saturating_add(to_send_.top().t, costs_.min_latency());
}

bool NicQueues::deliverable(SimTime act) const {
  return !to_deliver_.empty() && to_deliver_.top().t <= act &&
         to_deliver_.top().t < injected_before();
}

SimTime NicQueues::next_delivery() const {
  return to_deliver_.empty() ? kTimeInfinity : to_deliver_.top().t;
}

bool NicQueues::settle(mpilite::Arrivals& arrivals, SimTime remote) {
  // No stopped rank acts before `act`, no leg from another host reaches a node before `remote`,
  // and no leg still to be delivered wakes its receiver before it reaches it. A leg a rank
  // starts is ready at its NIC no earlier than the rank acts, and reaches any receiver a latency
  // later. So a leg ready before all three has its turn at its NIC, and a leg at its receiver by
  // `act` and before `remote` has its turn there once no leg still to be injected here can reach
  // a receiver first. Each decision wakes a rank (the sender when its part is done, the receiver
  // at the arrival), which may act from then on.
  SimTime act = arrivals.earliest_action();
  bool decided = false;
  for (;;) {
    // A leg kept behind occupies no port and its times are final: at the head of the queue, its
    // sender's earlier legs have left, and it may leave too. Waiting for `act` would wait for
    // ever when its own sender's next action is the send it completes, at the same time.
    if (!to_send_.empty() && (legs_[to_send_.top().slot].kept_behind ||
                              to_send_.top().t < std::min({act, remote, next_delivery()}))) {
      act = std::min(act, inject(arrivals));
      decided = true;
      continue;
    }
    if (deliverable(act) && to_deliver_.top().t < remote) {
      act = std::min(act, deliver(arrivals));
      decided = true;
      continue;
    }
    break;
  }
  // Raised bounds may let receivers take other messages, and so wake them: they run first.
  return decided || raise(arrivals);
}

mpilite::HeldBack NicQueues::held(mpilite::Arrivals& arrivals) const {
  mpilite::HeldBack h;
  legs_.for_each([&](const Leg& l) {
    h.arrivals = std::min(h.arrivals, lower_bound(l));
    // A send done once its bytes have left is an event of its sender's too: a test of it (or
    // of the non-blocking collective it is a step of) at a later clock must wait for the turn.
    // A leg kept behind is sent at its planned time, however busy its NIC.
    if (!l.injected && (l.request || l.data.reply_to))
      h.arrivals = std::min(
          h.arrivals,
          l.kept_behind ? l.sent : std::max(l.sent, out_port(l.src, l.dst).sending_until + l.work));
  });
  // Injecting a leg wakes its sender after the leg is ready, and the leg reaches another host
  // a latency after; delivering one wakes its receiver at the earliest when it is there.
  const SimTime act = arrivals.earliest_action();
  if (!to_send_.empty()) {
    h.acts = to_send_.top().t;
    // Only what other hosts may still send holds it.
    if (h.acts < std::min(act, next_delivery())) h.waits = h.acts;
  }
  if (!to_deliver_.empty()) {
    h.acts = std::min(h.acts, to_deliver_.top().t);
    if (deliverable(act)) h.waits = std::min(h.waits, to_deliver_.top().t);
  }
  return h;
}

} // namespace mpisim
