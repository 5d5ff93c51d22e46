// MPISIM_NETWORK=nic: a leg the rank's own code sends in order (Leg::in_order) from a node of one
// rank is injected at once, with the times the queues' turn would give it, so that its sender
// need not stop for the turn; a leg ready before one so sent is refused, never mispredicted.
// Times to the picosecond on the harness's round machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
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

// o_s 100 ns, L 1 us, 1 ns per byte; one rank per node, all on this host.
constexpr SimTime kSend = 100'000, kLatency = 1'000'000, kPsPerByte = 1000;

class Recorded final : public mpilite::Arrivals {
public:
  std::vector<std::string> events;

  SimTime earliest_action() override { return kTimeInfinity; }
  /// "coming to R" and "arrived S", in the order the queues called them.
  std::vector<std::string> announced;

  void arrived(mpilite::Message& m, SimTime at) override {
    note("arrived", m.seq, at);
    announced.push_back("arrived " + std::to_string(m.seq));
  }
  void coming(int rank) override { announced.push_back("coming to " + std::to_string(rank)); }
  void data_arrived(const mpilite::DataTransfer&, SimTime, SimTime) override {}
  void sent(int, std::uint64_t request, SimTime at) override { note("sent", request, at); }
  bool raise(const mpilite::LaterArrival*, std::size_t) override { return false; }
  bool here(int) const override { return true; }
  void forward(mpilite::Message&, SimTime) override {}
  void forward_data(const mpilite::DataTransfer&, SimTime) override {}
  void release(mpilite::Message&) override {}
  void note(const char* what, std::uint64_t id, SimTime at) {
    events.push_back(std::string(what) + " " + std::to_string(id) + " " + std::to_string(at));
  }
};

struct Queues {
  mpisim::Config config = test::config(4);
  mpisim::LinkCosts costs{config.machine, 4};
  mpisim::NicQueues nic{costs};
  Recorded ranks;
  mpilite::Message messages[3];

  /// Rank `from` sends `bytes` eagerly to `to`, starting at `start`; its send (request seq + 1)
  /// is done once its bytes have left. Returns the plan the queues made of it.
  mpilite::LegPlan send(int from, int to, std::size_t bytes, SimTime start, std::uint64_t seq,
                        bool in_order) {
    mpilite::Message& m = messages[seq];
    m.src = from;
    m.dst = to;
    m.seq = seq;
    const mpilite::Leg leg{LegKind::Eager, from,    to,      bytes, start, seq, &m,
                           nullptr,        seq + 1, in_order};
    const SimTime leaves = start + kSend;
    const SimTime arrives = leaves + kLatency + static_cast<SimTime>(bytes) * kPsPerByte;
    mpilite::LegPlan plan{leaves, leaves, arrives};
    EXPECT_TRUE(nic.carry(leg, plan));
    return plan;
  }
};

// Rank 0 sends 1 000 bytes to rank 1, then 500 bytes to rank 2 while its NIC still sends the
// first, and rank 3 sends 2 000 bytes to rank 1 before rank 0's first reaches it.
void send_three(Queues& q, bool in_order, std::vector<mpilite::LegPlan>& plans) {
  plans.push_back(q.send(0, 1, 1000, 0, 0, in_order));
  plans.push_back(q.send(0, 2, 500, 200'000, 1, in_order));
  plans.push_back(q.send(3, 1, 2000, 50'000, 2, in_order));
  while (q.nic.settle(q.ranks, kTimeInfinity)) {
  }
}

TEST(NicInOrder, ALegSentInOrderHasTheTimesOfItsTurn) {
  Queues queued, at_once;
  std::vector<mpilite::LegPlan> waited, direct;
  send_three(queued, false, waited);
  send_three(at_once, true, direct);
  // Queued, each send waits for the queues' turn (a lower bound until then) ...
  for (const mpilite::LegPlan& p : waited)
    EXPECT_TRUE(p.sent_later);
  // ... which says when each one's bytes have left: the second waits for the first's 1 us.
  const std::vector<std::string> sent_queued = {"sent 1 1100000", "sent 3 2150000",
                                                "sent 2 1600000"};
  // Rank 1's NIC takes rank 0's message first (its first byte is there first), then rank 3's
  // 2 us of bytes.
  const std::vector<std::string> arrivals = {"arrived 0 2100000", "arrived 2 4100000",
                                             "arrived 1 2600000"};
  std::vector<std::string> want = sent_queued;
  want.insert(want.end(), arrivals.begin(), arrivals.end());
  std::sort(want.begin(), want.end());
  std::sort(queued.ranks.events.begin(), queued.ranks.events.end());
  EXPECT_EQ(queued.ranks.events, want);
  // In order, the same times at once, and the same arrivals afterwards.
  for (const mpilite::LegPlan& p : direct)
    EXPECT_FALSE(p.sent_later);
  EXPECT_EQ(direct[0].sent, 1'100'000);
  EXPECT_EQ(direct[1].sent, 1'600'000);
  EXPECT_EQ(direct[2].sent, 2'150'000);
  std::vector<std::string> got = at_once.ranks.events;
  std::vector<std::string> want_arrivals = arrivals;
  std::sort(got.begin(), got.end());
  std::sort(want_arrivals.begin(), want_arrivals.end());
  EXPECT_EQ(got, want_arrivals);
}

// Settling decides arrivals in a row; before each one it names the receiver of the next, whose
// state the simulation then fetches into the cache while the current one is matched.
TEST(NicInOrder, TheNextArrivalIsAnnouncedWhileTheOneBeforeIsDecided) {
  Queues q;
  std::vector<mpilite::LegPlan> plans;
  send_three(q, false, plans);
  // Decided in the order their first bytes reach the receivers' NICs: 0, then rank 3's (at
  // rank 1 from 1.15 us), then rank 0's second (at rank 2 from 2.1 us).
  const std::vector<std::string> want = {"coming to 1", "arrived 0", "coming to 2", "arrived 2",
                                         "arrived 1"};
  EXPECT_EQ(q.ranks.announced, want);
}

TEST(NicInOrder, ALegWaitsForItsTurnBehindOneOfItsNodeThatWaits) {
  Queues q;
  EXPECT_TRUE(q.send(0, 1, 1000, 0, 0, false).sent_later);
  // Ready later than the waiting one, but the NIC has not sent that one yet.
  EXPECT_TRUE(q.send(0, 2, 500, 200'000, 1, true).sent_later);
  // Another node's NIC has nothing waiting.
  EXPECT_FALSE(q.send(3, 1, 2000, 50'000, 2, true).sent_later);
}

TEST(NicInOrder, ALegReadyBeforeOneSentInOrderIsRefused) {
  Queues q;
  EXPECT_FALSE(q.send(0, 1, 1000, 200'000, 0, true).sent_later);
  // A leg of rank 0 ready before the one its NIC already sent: the shortcut's premise failed.
  try {
    q.send(0, 2, 500, 0, 1, false);
    FAIL() << "an out-of-order leg was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0"), std::string::npos) << e.what();
  }
}

} // namespace
