#include "contention.hpp"

#include <algorithm>

#include "lp_control.hpp"
#include "matching.hpp"

namespace mpisim {

using mpilite::kTimeInfinity;

bool Contention::add_flow(const FlowNetwork::Key& key, int src, int dst, std::size_t bytes,
                          SimTime start, Payload payload) {
  const int from = network_.node_of(src);
  const int to = network_.node_of(dst);
  SimTime work = network_.transmission(src, dst, bytes);
  if (from == to || work <= 0) return false; // shared memory, or infinitely fast links
  // The rest of the transfer comes after the last byte; a segment whose line has a negative
  // intercept has none, and the flow then carries the whole transfer.
  const SimTime total = network_.transfer(src, dst, bytes);
  payload.tail = std::max<SimTime>(0, total - work);
  work = total - payload.tail;
  std::size_t slot = payloads_.size();
  if (!free_payloads_.empty()) {
    slot = free_payloads_.back();
    free_payloads_.pop_back();
    payloads_[slot] = payload;
  } else {
    payloads_.push_back(payload);
  }
  flows_.add(key, {start, work, network_.topology().route(from, to), slot});
  return true;
}

void Contention::on_send(mpilite::Message& m, SimTime injected, std::size_t data_bytes) {
  if (data_bytes == 0) return;
  Payload p;
  p.message = &m;
  if (add_flow({injected, m.src, m.seq, 0}, m.src, m.dst, data_bytes, injected, p))
    m.pending = true; // m.ts, the arrival without contention, is a lower bound
}

bool Contention::defer_data(const mpilite::DataTransfer& d) {
  Payload p;
  p.data = d;
  return add_flow({d.start, d.src, d.seq, 1}, d.src, d.dst, d.bytes, d.start, p);
}

bool Contention::settle(mpilite::World& world, SimTime& bound) {
  bound = kTimeInfinity;
  if (flows_.empty()) return false;
  for (;;) {
    // No stopped rank acts before `act`. The receiver of an eager flow acts no earlier than its
    // arrival, the end of the flow plus its tail; the two ends of rendezvous data act from the
    // flow's end. So no flow starts before the horizon these give, and the flows that end by
    // then are final.
    const SimTime act = mpilite::earliest_decision(world);
    const std::vector<FlowNetwork::Finished> final =
        flows_.finishes_until(act, [this](const FlowNetwork::Finished& f) {
          const Payload& p = payloads_[f.payload];
          return f.finish + (p.message ? p.tail : 0);
        });
    if (!final.empty()) {
      for (const FlowNetwork::Finished& f : flows_.advance(final.back().finish)) {
        const Payload p = payloads_[f.payload];
        free_payloads_.push_back(f.payload);
        if (p.message)
          mpilite::settle_message(world, *p.message, f.finish + p.tail);
        else
          mpilite::finish_data(world, p.data, f.finish + p.tail);
      }
      return true;
    }
    // Nothing is final yet, but the flows run as projected until `act` (so the model may move
    // there) and no faster than alone afterwards: raise the pending arrivals to that, which may
    // change what receives could take, and so `act`.
    flows_.advance(act);
    std::vector<mpilite::Rank*> raised; // receivers whose choices may change
    for (const auto& [slot, finish] : flows_.finish_lower_bounds(act)) {
      const Payload& p = payloads_[slot];
      const SimTime arrival = finish + p.tail;
      bound = std::min(bound, arrival);
      if (p.message && arrival > p.message->ts) {
        p.message->ts = arrival;
        if (mpilite::Rank* r = world.local(p.message->dst)) raised.push_back(r);
      }
    }
    std::sort(raised.begin(), raised.end(),
              [](const mpilite::Rank* a, const mpilite::Rank* b) { return a->id < b->id; });
    raised.erase(std::unique(raised.begin(), raised.end()), raised.end());
    for (mpilite::Rank* r : raised)
      if (!r->posted.empty()) mpilite::progress_matching(world, *r);
    if (raised.empty()) return false;
    bound = kTimeInfinity;
  }
}

} // namespace mpisim
