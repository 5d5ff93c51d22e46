// How NMP and NMP+CEP make and withdraw their asks for bounds, frame by frame on one thread of
// the fake transport (no interleaving to depend on): a host whose LPs have all finished withdraws
// its asks with its last null message and owes a peer that promised never to send again no
// withdrawal; NMP+CEP announces an ask not made yet in the request of a global round, not in a
// null batch of its own, and answers with null messages when none of its LPs waits for a bound;
// a host that finished owes the coordinator no null message, since its report says so.
#include <gtest/gtest.h>

#include "two_hosts.hpp"

namespace {

using mpisim::protocols::IdleState;
using mpisim::protocols::kAllHosts;
using mpisim::protocols::kTimeInfinity;
using test::kLookahead;
using test::TwoHosts;
using test::waiting;

/// A host whose LPs have all finished.
IdleState finished() {
  IdleState s;
  s.summary = {kTimeInfinity, -1, kTimeInfinity, 0, false};
  s.eot_to = [](int) { return kTimeInfinity; };
  s.min_clock = [] { return kTimeInfinity; };
  return s;
}

TEST(NmpAsks, AFinishedHostWithdrawsItsAsksWithItsLastNull) {
  TwoHosts h("nmp");
  h.from_peer(5 * kLookahead, true);
  h.protocol->on_idle(waiting(8 * kLookahead, 6 * kLookahead));
  const auto ask = h.next_null();
  ASSERT_TRUE(ask);
  EXPECT_TRUE(ask->wants);
  EXPECT_EQ(ask->value, 6 * kLookahead);

  EXPECT_TRUE(h.protocol->on_idle(finished()));
  const auto last = h.next_null();
  ASSERT_TRUE(last);
  EXPECT_FALSE(last->wants);
  EXPECT_EQ(last->value, kTimeInfinity);
  EXPECT_EQ(h.stats.null_rounds, 2u);
}

TEST(NmpAsks, NoWithdrawalToAPeerThatPromisedNeverToSendAgain) {
  TwoHosts h("nmp");
  h.protocol->on_idle(waiting(8 * kLookahead, 6 * kLookahead));
  ASSERT_TRUE(h.next_null());
  // Host 1 finished first: its last null says it sends nothing more and asks for nothing.
  h.from_peer(kTimeInfinity, false);
  EXPECT_EQ(h.protocol->remote_bound(kAllHosts), kTimeInfinity);
  h.protocol->on_idle(finished());
  EXPECT_FALSE(h.next_null());
  EXPECT_EQ(h.stats.null_rounds, 1u);
}

TEST(NmpAsks, APeerStillAskingHearsTheFinishedHostsLastPromise) {
  // The peer's LPs may still wait for this host's bound: the withdrawal carries infinity.
  TwoHosts h("nmp");
  h.from_peer(5 * kLookahead, true);
  h.protocol->on_idle(finished());
  const auto last = h.next_null();
  ASSERT_TRUE(last);
  EXPECT_EQ(last->value, kTimeInfinity);
  EXPECT_FALSE(last->wants);
}

TEST(NmpAsks, AFinishedHostOwesTheCoordinatorNoNullItsReportSaysItAll) {
  // Host 1 finished: the report that follows tells the coordinator (host 0).
  TwoHosts one("nmp", 1);
  one.from_peer(5 * kLookahead, true);
  EXPECT_TRUE(one.protocol->on_idle(finished()));
  EXPECT_FALSE(one.next_null());
  EXPECT_EQ(one.stats.null_rounds, 0u);
  // The coordinator, told by that report, expects nothing more from host 1 and owes it nothing.
  for (auto kind : {"nmp", "cep", "nmp+cep"}) {
    TwoHosts zero(kind);
    zero.from_peer(5 * kLookahead, true);
    zero.protocol->on_finished(1);
    EXPECT_EQ(zero.protocol->remote_bound(kAllHosts), kTimeInfinity);
    EXPECT_TRUE(zero.protocol->on_idle(finished()));
    EXPECT_FALSE(zero.next_null());
  }
}

TEST(NmpCepAsks, AFirstAskRidesOnTheRequestOfAGlobalRound) {
  TwoHosts h("nmp+cep");
  EXPECT_TRUE(h.protocol->on_idle(waiting(8 * kLookahead, 6 * kLookahead)));
  const auto request = h.next_null();
  ASSERT_TRUE(request);
  EXPECT_TRUE(request->wants);
  EXPECT_EQ(request->round, 1u);
  EXPECT_EQ(request->need, 8 * kLookahead);
  EXPECT_EQ(h.stats.null_rounds, 0u);
  EXPECT_EQ(h.stats.null_messages, 1u);
}

TEST(NmpCepAsks, AnAskMadeAndAnsweredLeavesTheNextWaitToNullMessages) {
  // The peer asked too and its answer would free this host's LP: a null message, no round.
  TwoHosts h("nmp+cep");
  h.from_peer(5 * kLookahead, true, 9 * kLookahead);
  EXPECT_TRUE(h.protocol->on_idle(waiting(8 * kLookahead, 6 * kLookahead)));
  ASSERT_TRUE(h.next_null()); // the round's request, with the ask
  mpisim::protocols::Decision d;
  d.epoch = 1;
  d.g = 6 * kLookahead;
  d.k_of_host = {7 * kLookahead, 7 * kLookahead};
  h.protocol->on_decision(d);
  h.from_peer(9 * kLookahead, true, 11 * kLookahead);
  EXPECT_FALSE(h.protocol->on_idle(waiting(12 * kLookahead, 10 * kLookahead)));
  const auto answer = h.next_null();
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->round, 0u);
  EXPECT_EQ(answer->value, 10 * kLookahead);
  EXPECT_EQ(h.stats.null_rounds, 1u);
}

TEST(NmpCepAsks, AHostWithNothingToDecideAnswersWithNullsNotARound) {
  // Every LP of this host waits for a message and none for a time bound: what it promises
  // follows the peer's promises, but nothing of its own waits on them. The peer that asked gets
  // null messages, as under NMP, rather than a global round that both hosts pay for (a master on
  // the other host taking results with MPI_ANY_SOURCE took 4 such rounds more than NMP).
  TwoHosts h("nmp+cep");
  h.from_peer(5 * kLookahead, true, 20 * kLookahead);
  IdleState s = waiting(kTimeInfinity, 6 * kLookahead);
  s.summary = {kTimeInfinity, -1, kTimeInfinity, 4, false};
  s.wanted = 0;
  s.min_clock = [] { return 4 * kLookahead; };
  h.protocol->on_idle(s);
  const auto answer = h.next_null();
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->round, 0u);
  EXPECT_EQ(answer->value, 6 * kLookahead);
  EXPECT_EQ(h.stats.null_rounds, 1u);
}

} // namespace
