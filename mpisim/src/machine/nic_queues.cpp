#include "nic_queues.hpp"

#include <algorithm>

namespace mpisim {

using mpilite::kTimeInfinity;
using mpilite::LegKind;

NicQueues::NicQueues(const LinkCosts& costs)
    : costs_(costs), sending_until_(static_cast<std::size_t>(costs.node_of(costs.ranks() - 1) + 1)),
      delivering_until_(sending_until_.size()) {}

std::size_t NicQueues::store(const Leg& leg) {
  if (free_slots_.empty()) {
    legs_.push_back(leg);
    return legs_.size() - 1;
  }
  const std::size_t slot = free_slots_.back();
  free_slots_.pop_back();
  legs_[slot] = leg;
  return slot;
}

bool NicQueues::carry(const mpilite::Leg& leg, const mpilite::LegPlan& alone) {
  if (leg.kind != LegKind::Eager && leg.kind != LegKind::Data) return false;
  const SimTime work = costs_.injection(leg.from, leg.to, leg.bytes);
  // Inside a node, or no bytes to send (or an infinitely fast link): no NIC is involved.
  if (work <= 0) return false;
  Leg l;
  if (leg.kind == LegKind::Eager) {
    l.message = leg.message;
    l.request = leg.request;
  } else {
    l.data = *leg.data;
  }
  l.src = leg.from;
  l.dst = leg.to;
  l.seq = leg.seq;
  l.kind = static_cast<std::uint8_t>(leg.kind);
  l.leaves = alone.leaves;
  l.work = work;
  l.alone_arrives = alone.arrives;
  l.alone_sent = leg.kind == LegKind::Eager ? alone.leaves + work : alone.sent;
  l.used = true;
  to_send_.push({l.leaves, l.src, l.seq, l.kind, store(l)});
  return true;
}

SimTime NicQueues::inject(mpilite::Arrivals& arrivals) {
  const std::size_t slot = to_send_.top().slot;
  to_send_.pop();
  Leg& l = legs_[slot];
  SimTime& free_at = sending_until_[static_cast<std::size_t>(costs_.node_of(l.src))];
  const SimTime start = std::max(l.leaves, free_at);
  const SimTime delay = start - l.leaves;
  free_at = start + l.work;
  const SimTime sent = std::max(l.alone_sent + delay, free_at);
  l.at_receiver = l.alone_arrives + delay;
  l.alone_sent = sent;
  l.injected = true;
  to_deliver_.push({l.at_receiver, l.src, l.seq, l.kind, slot});
  if (l.message) {
    if (l.request) arrivals.sent(l.src, l.request, sent);
  } else if (l.data.reply_to) {
    arrivals.sent(l.data.src, l.data.reply_to, sent);
    l.data.reply_to = 0; // done: the arrival completes only the receive
  }
  return sent;
}

SimTime NicQueues::deliver(mpilite::Arrivals& arrivals) {
  const std::size_t slot = to_deliver_.top().slot;
  to_deliver_.pop();
  const Leg l = legs_[slot];
  legs_[slot].used = false;
  free_slots_.push_back(slot);
  SimTime& free_at = delivering_until_[static_cast<std::size_t>(costs_.node_of(l.dst))];
  const SimTime arrival = std::max(l.at_receiver, free_at + l.work);
  free_at = arrival;
  if (l.message)
    arrivals.arrived(*l.message, arrival);
  else
    arrivals.data_arrived(l.data, arrival, l.alone_sent);
  return arrival;
}

bool NicQueues::raise(mpilite::Arrivals& arrivals, SimTime& bound) {
  // A leg waits for what its sender's NIC has sent so far, then for what the receiver's has
  // delivered: its arrival is at least what that gives, were nothing else to come before it.
  std::vector<mpilite::LaterArrival> raised;
  for (const Leg& l : legs_) {
    if (!l.used) continue;
    SimTime low = l.at_receiver;
    if (!l.injected) {
      const SimTime sender_free = sending_until_[static_cast<std::size_t>(costs_.node_of(l.src))];
      low = l.alone_arrives + std::max<SimTime>(0, sender_free - l.leaves);
    }
    low =
        std::max(low, delivering_until_[static_cast<std::size_t>(costs_.node_of(l.dst))] + l.work);
    bound = std::min(bound, low);
    if (l.message) raised.push_back({l.message, low});
  }
  return arrivals.raise(raised.data(), raised.size());
}

bool NicQueues::settle(mpilite::Arrivals& arrivals, SimTime& bound) {
  bound = kTimeInfinity;
  for (;;) {
    // No stopped rank acts before `act`: a leg it starts then is ready at its NIC no earlier,
    // and reaches any receiver a latency later. So a leg ready before `act` has its turn at its
    // NIC, and a leg at its receiver by `act` has its turn there once no leg still to be
    // injected can reach a receiver first. Each decision wakes a rank (the sender when its
    // part is done, the receiver at the arrival), which may act from then on.
    SimTime act = arrivals.earliest_action();
    bool decided = false;
    for (;;) {
      if (!to_send_.empty() && to_send_.top().t < act) {
        act = std::min(act, inject(arrivals));
        decided = true;
        continue;
      }
      // Every leg still to be injected reaches its receiver a latency after it is ready.
      const SimTime injected_before =
          to_send_.empty() ? kTimeInfinity
                           : mpilite::saturating_add(to_send_.top().t, costs_.min_latency());
      if (!to_deliver_.empty() && to_deliver_.top().t <= act &&
          to_deliver_.top().t < injected_before) {
        act = std::min(act, deliver(arrivals));
        decided = true;
        continue;
      }
      break;
    }
    if (decided) return true;
    if (!raise(arrivals, bound)) return false;
    bound = kTimeInfinity;
  }
}

} // namespace mpisim
