#include "contention.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace mpisim {

using mpilite::kTimeInfinity;

namespace {

/// A rank's memory as a link, out or in: numbered above every link of a topology (a node and a
/// port below 2^40).
Topology::Link memory_link(int rank, bool in) {
  return Topology::Link{1} << 63 | static_cast<Topology::Link>(rank) << 1 | (in ? 1 : 0);
}

} // namespace

bool Contention::add_flow(const FlowNetwork::Key& key, int src, int dst, std::size_t bytes,
                          SimTime start, Payload payload) {
  const int from = costs_.node_of(src);
  const int to = costs_.node_of(dst);
  // Inside a node the bytes go through the memory of both ranks, each a link at the intra-node
  // bandwidth that the ranks' other messages inside the node share. Between nodes a message
  // keeps each link of its route at least as long as its sender's NIC (its bytes and the
  // overhead of each packet or flit): the growth of the transfer with the size alone misses a
  // packet's overhead, and a whole wormhole message of one flit, which then shared nothing.
  SimTime work = costs_.injection(src, dst, bytes);
  if (from != to) work = std::max(work, costs_.transmission(src, dst, bytes));
  if (src == dst || work <= 0) return false; // a local copy, or infinitely fast links
  // The rest of the transfer comes after the last byte; a segment whose line has a negative
  // intercept has none, and the flow then carries the whole transfer.
  const SimTime total = costs_.transfer(src, dst, bytes);
  payload.tail = std::max<SimTime>(0, total - work);
  work = total - payload.tail;
  std::vector<Topology::Link> route =
      from == to ? std::vector{memory_link(src, false), memory_link(dst, true)}
                 : costs_.topology().route(from, to);
  // A receive that takes a message only once an earlier one from the same sender is decided
  // (non-overtaking) may answer a request-to-send that came before that decision: its data
  // then starts when the network learns of it, no earlier than the time the flows were
  // decided to (a rendezvous behind an eager message still in flight aborted the run).
  start = std::max(start, flows_.now());
  flows_.add(key, {start, work, std::move(route), payloads_.store(payload)});
  return true;
}

bool Contention::carry(const mpilite::Leg& leg, const mpilite::LegPlan& alone) {
  Payload p;
  if (leg.kind == mpilite::LegKind::Eager && leg.bytes > 0) {
    // The arrival without contention, alone.arrives, stays the message's lower bound.
    p.message = leg.message;
    return add_flow({alone.leaves, leg.from, leg.seq, 0}, leg.from, leg.to, leg.bytes, alone.leaves,
                    p);
  }
  if (leg.kind == mpilite::LegKind::Data) {
    const mpilite::DataTransfer& d = *leg.data;
    p.data = d;
    return add_flow({d.start, d.src, d.seq, 1}, d.src, d.dst, d.bytes, d.start, p);
  }
  return false;
}

std::vector<FlowNetwork::Finished> Contention::final_flows(SimTime act) const {
  // No stopped rank acts before `act`. The receiver of an eager flow acts no earlier than its
  // arrival, the end of the flow plus its tail; the two ends of rendezvous data act from the
  // flow's end. So no flow starts before the horizon these give, and the flows that end by then
  // are final.
  return flows_.finishes_until(act, [this](const FlowNetwork::Finished& f) {
    const Payload& p = payloads_[f.payload];
    return f.finish + (p.message ? p.tail : 0);
  });
}

bool Contention::settle(mpilite::Arrivals& arrivals, SimTime) {
  if (flows_.empty()) return false;
  for (;;) {
    const SimTime act = arrivals.earliest_action();
    const std::vector<FlowNetwork::Finished> final = final_flows(act);
    if (!final.empty()) {
      for (const FlowNetwork::Finished& f : flows_.advance(final.back().finish)) {
        const Payload p = payloads_[f.payload];
        payloads_.release(f.payload);
        const SimTime arrival = f.finish + p.tail;
        if (p.message)
          arrivals.arrived(*p.message, arrival);
        else
          arrivals.data_arrived(p.data, arrival,
                                arrival - costs_.transfer(p.data.src, p.data.dst, 0));
      }
      return true;
    }
    // Nothing is final yet, but the flows run as projected until `act` (so the model may move
    // there) and no faster than alone afterwards: raise the pending arrivals to that, which may
    // change what receives could take, and so `act`.
    flows_.advance(act);
    std::vector<mpilite::LaterArrival> raised;
    for (const auto& [slot, finish] : flows_.finish_lower_bounds(act))
      if (const Payload& p = payloads_[slot]; p.message)
        raised.push_back({p.message, finish + p.tail});
    if (!arrivals.raise(raised.data(), raised.size())) return false;
  }
}

mpilite::HeldBack Contention::held(mpilite::Arrivals& arrivals) const {
  mpilite::HeldBack h;
  if (flows_.empty()) return h;
  const SimTime act = arrivals.earliest_action();
  // A flow's end wakes a rank (the receiver of eager data after the tail, both ends of rendezvous
  // data at once), no earlier than its projection from where the ranks may next act.
  for (const auto& [slot, finish] : flows_.finish_lower_bounds(std::max(act, flows_.now()))) {
    const Payload& p = payloads_[slot];
    h.arrivals = std::min(h.arrivals, finish + p.tail);
    h.acts = std::min(h.acts, finish);
  }
  // Flows already final (a match the time bounds just allowed may have started one while every
  // rank waits): settle() decides them once asked, so the host must not be judged stuck.
  if (const auto final = final_flows(act); !final.empty()) h.waits = final.front().finish;
  return h;
}

} // namespace mpisim
