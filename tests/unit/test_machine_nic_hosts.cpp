// MPISIM_NETWORK=nic on several host processes, at the level of one host's NIC queues: a leg to a
// rank of another host leaves after its turn at the sender's NIC, stamped with when it reaches
// the receiver's node; a leg from another host is delivered only once no frame from elsewhere can
// come before it. Times to the picosecond on the harness's round machine.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "link_costs.hpp"
#include "message.hpp"
#include "nic_queues.hpp"
#include "sim_harness.hpp"

namespace {

using mpilite::kTimeInfinity;
using mpilite::LegKind;
using mpisim::SimTime;

// o_s 100 ns, L 1 us, 1 ns per byte; one rank per node.
constexpr SimTime kSend = 100'000, kLatency = 1'000'000, kPsPerByte = 1000;
constexpr std::size_t kBytes = 1000;
constexpr SimTime kWork = kBytes * kPsPerByte;

/// Ranks 0 and 1 on this host, 2 and 3 on another; what the queues tell the ranks, in order.
class Recorded final : public mpilite::Arrivals {
public:
  SimTime act = kTimeInfinity; ///< the ranks' earliest action
  std::vector<std::string> events;

  SimTime earliest_action() override { return act; }
  void arrived(mpilite::Message& m, SimTime at) override { note("arrived", m.src, at); }
  void data_arrived(const mpilite::DataTransfer& d, SimTime at, SimTime) override {
    note("data arrived", d.src, at);
  }
  void sent(int rank, std::uint64_t, SimTime at) override { note("sent", rank, at); }
  bool raise(const mpilite::LaterArrival*, std::size_t) override { return false; }
  bool here(int rank) const override { return rank < 2; }
  void forward(mpilite::Message& m, SimTime at) override { note("forward", m.src, at); }
  void forward_data(const mpilite::DataTransfer& d, SimTime at) override {
    note("forward data", d.src, at);
  }
  void release(mpilite::Message& m) override { note("release", m.src, m.ts); }

private:
  void note(const char* what, int rank, SimTime at) {
    events.push_back(std::string(what) + " " + std::to_string(rank) + " " + std::to_string(at));
  }
};

std::string event(const char* what, int rank, SimTime at) {
  return std::string(what) + " " + std::to_string(rank) + " " + std::to_string(at);
}

struct Queues {
  mpisim::Config config = test::config(4);
  mpisim::LinkCosts costs{config.machine, 4};
  mpisim::NicQueues nic{costs};
};

/// Rank `from` starts an eager send of kBytes to `to` at 0 (request 7: done once sent).
void send_eager(mpisim::NicQueues& nic, mpilite::Message& m, int from, int to, std::uint64_t seq) {
  m.src = from;
  m.dst = to;
  m.seq = seq;
  const mpilite::Leg leg{LegKind::Eager, from, to, kBytes, 0, seq, &m, nullptr, 7};
  mpilite::LegPlan alone{kSend, kSend + kWork, kSend + kLatency + kWork};
  ASSERT_TRUE(nic.carry(leg, alone));
}

/// A message of no bytes (a request to send, or empty) from rank 0 to rank 2, ready at 2 o_s
/// and planned alone on the network; its times.
mpilite::LegPlan empty_to_rank_2(mpilite::Message& m) {
  m.src = 0;
  m.dst = 2;
  m.ts = 2 * kSend + kLatency;
  return {2 * kSend, 2 * kSend, 2 * kSend + kLatency};
}

TEST(NicHosts, ALegToAnotherHostLeavesAfterItsTurnAtTheSendersNic) {
  Queues q;
  Recorded ranks;
  mpilite::Message a, b;
  send_eager(q.nic, a, 0, 2, 0);
  send_eager(q.nic, b, 0, 3, 1);
  // Another host may still send this one a frame at 0: a rank it wakes could send before them.
  EXPECT_FALSE(q.nic.settle(ranks, 0));
  EXPECT_TRUE(ranks.events.empty());
  const mpilite::HeldBack held = q.nic.held(ranks);
  EXPECT_EQ(held.acts, kSend);
  EXPECT_EQ(held.waits, kSend);
  // What its ranks may yet see: the first send done once its bytes have left, before any arrival.
  EXPECT_EQ(held.arrivals, kSend + kWork);
  // Once no frame can come before they are ready, both go, one after the other; each leaves for
  // the receiver's host stamped with when its first byte reaches that node, before its sender
  // is told (woken, it may send an empty message at once, which must not get there first).
  EXPECT_TRUE(q.nic.settle(ranks, kSend + 1));
  const std::vector<std::string> want = {
      event("forward", 0, kSend + kLatency), event("sent", 0, kSend + kWork),
      event("forward", 0, kSend + kLatency + kWork), event("sent", 0, kSend + 2 * kWork)};
  EXPECT_EQ(ranks.events, want);
  EXPECT_EQ(q.nic.held(ranks).acts, kTimeInfinity); // nothing left here
}

TEST(NicHosts, ARequestToSendToAnotherHostLeavesAfterItsSendersWaitingLegs) {
  Queues q;
  Recorded ranks;
  mpilite::Message a, b;
  // Rank 0's eager send to rank 2 waits at its NIC; then it starts a rendezvous with rank 2.
  send_eager(q.nic, a, 0, 2, 0);
  const mpilite::LegPlan planned = empty_to_rank_2(b);
  mpilite::LegPlan plan = planned;
  const mpilite::Leg rts{LegKind::RequestToSend, 0, 2, 0, kSend, 1, &b, nullptr, 0, false, true};
  ASSERT_TRUE(q.nic.carry(rts, plan));
  // Its times are the ones planned: only its leaving waits.
  EXPECT_EQ(plan.arrives, planned.arrives);
  EXPECT_EQ(plan.sent, planned.sent);
  EXPECT_FALSE(plan.sent_later);
  EXPECT_EQ(q.nic.held(ranks).arrivals, kSend + kWork); // the eager send's bytes leaving
  // The eager leg leaves first, then the request to send, with its planned arrival.
  EXPECT_TRUE(q.nic.settle(ranks, kTimeInfinity));
  const std::vector<std::string> want = {event("forward", 0, kSend + kLatency),
                                         event("sent", 0, kSend + kWork),
                                         event("release", 0, 2 * kSend + kLatency)};
  EXPECT_EQ(ranks.events, want);
  // With nothing waiting, or to a rank of this host, it leaves at once.
  mpilite::Message c;
  plan = planned;
  EXPECT_FALSE(q.nic.carry(rts, plan));
  send_eager(q.nic, c, 0, 3, 2);
  plan = planned;
  const mpilite::Leg here{LegKind::RequestToSend, 0, 1, 0, kSend, 3, &b, nullptr, 0, false, false};
  EXPECT_FALSE(q.nic.carry(here, plan));
}

TEST(NicHosts, AnEmptyMessageKeptBehindLeavesWhenItsSenderWaitsForIt) {
  Queues q;
  Recorded ranks;
  mpilite::Message a, b;
  // Rank 0's eager send to rank 2 waits at its NIC; then it sends rank 2 an empty message and
  // waits for it: the ranks' earliest action is that send's completion, when it leaves.
  send_eager(q.nic, a, 0, 2, 0);
  mpilite::LegPlan plan = empty_to_rank_2(b);
  const mpilite::Leg empty{LegKind::Eager, 0, 2, 0, kSend, 1, &b, nullptr, 9, false, true};
  ASSERT_TRUE(q.nic.carry(empty, plan));
  EXPECT_TRUE(plan.sent_later);
  ranks.act = 2 * kSend;
  // It occupies no port: once the leg before it has left, it leaves too, though no rank acts
  // before it (it waited for ever so, three host processes idle).
  EXPECT_TRUE(q.nic.settle(ranks, kTimeInfinity));
  const std::vector<std::string> want = {
      event("forward", 0, kSend + kLatency), event("sent", 0, kSend + kWork),
      event("release", 0, 2 * kSend + kLatency), event("sent", 0, 2 * kSend)};
  EXPECT_EQ(ranks.events, want);
  EXPECT_EQ(q.nic.held(ranks).acts, kTimeInfinity);
}

TEST(NicHosts, ALegFromAnotherHostIsDeliveredOnceNoFrameCanComeFirst) {
  Queues q;
  Recorded ranks;
  mpilite::Message a, b;
  a.src = 2;
  b.src = 3;
  // Both frames are stamped with their first byte's time at rank 0's node.
  const SimTime at = 5 * kLatency;
  // Until decided, the message's lower bound is its last byte.
  EXPECT_EQ(q.nic.received({LegKind::Eager, 2, 0, kBytes, 0, 0, &a}, at), at + kWork);
  q.nic.received({LegKind::Eager, 3, 0, kBytes, 0, 0, &b}, at);
  // A frame stamped `at` may still come, and could go first: nothing is delivered.
  EXPECT_FALSE(q.nic.settle(ranks, at));
  EXPECT_TRUE(ranks.events.empty());
  EXPECT_EQ(q.nic.held(ranks).waits, at);
  EXPECT_EQ(q.nic.held(ranks).acts, at);
  // Then the two are delivered by rank 0's NIC one after the other, by sender on a tie.
  EXPECT_TRUE(q.nic.settle(ranks, at + 1));
  const std::vector<std::string> want = {event("arrived", 2, at + kWork),
                                         event("arrived", 3, at + 2 * kWork)};
  EXPECT_EQ(ranks.events, want);
}

TEST(NicHosts, RendezvousDataToAnotherHostLeavesOnceSent) {
  Queues q;
  Recorded ranks;
  // The clear-to-send reached rank 1 (this host) at 3 us; the data goes to rank 2.
  const mpilite::DataTransfer d{1, 2, 11, 12, 0, kBytes, 3 * kLatency, nullptr};
  const mpilite::Leg leg{LegKind::Data, 1, 2, kBytes, d.start, 0, nullptr, &d};
  const SimTime arrives = d.start + kLatency + kWork;
  mpilite::LegPlan alone{d.start, arrives - kLatency, arrives};
  ASSERT_TRUE(q.nic.carry(leg, alone));
  EXPECT_TRUE(q.nic.settle(ranks, kTimeInfinity));
  const std::vector<std::string> want = {event("forward data", 1, arrives - kWork),
                                         event("sent", 1, d.start + kWork)};
  EXPECT_EQ(ranks.events, want);
}

} // namespace
