// What a global round tells every host, and what hosts then leave unsaid, frame by frame on one
// thread of the fake transport: each host computes the bound its peers now hold of it, exactly as
// they compute it; NMP+CEP sends no null message that says no more than that; a host asks for a
// round rather than a null when it cannot tell whether its answer would free the peer; the
// coordinator decides no round on its own report once a finished host has freed its LPs; and a
// round's snapshot tells each host what its peers still wait for.
#include <gtest/gtest.h>

#include <algorithm>

#include "cep_protocol.hpp"
#include "global_rounds.hpp"
#include "two_hosts.hpp"

namespace {

using mpisim::protocols::Decision;
using mpisim::protocols::FrameKind;
using mpisim::protocols::kAllHosts;
using mpisim::protocols::kTimeInfinity;
using mpisim::protocols::SimTime;
using mpisim::protocols::SyncStats;
using test::next_frame;
using test::TwoHosts;
using test::waiting;

constexpr SimTime kL = test::kLookahead;

/// A round's decision whose snapshot found host k's earliest K at `k_of_host[k]`.
Decision bound(std::uint64_t epoch, std::vector<SimTime> k_of_host) {
  Decision d;
  d.epoch = epoch;
  d.g = *std::min_element(k_of_host.begin(), k_of_host.end());
  d.k_of_host = std::move(k_of_host);
  return d;
}

TEST(RoundKnowledge, EveryHostKnowsTheBoundItsPeersHoldOfIt) {
  // Three hosts with a different lookahead on every direct link.
  constexpr int kHosts = 3;
  test::FakeNetwork net{kHosts, 1u};
  const mpisim::protocols::HostLookaheads lookaheads{
      kL, {{0, 2 * kL, 5 * kL}, {3 * kL, 0, kL}, {4 * kL, 7 * kL, 0}}};
  std::vector<test::FakeTransport> ends;
  std::vector<SyncStats> stats(kHosts);
  std::vector<mpisim::protocols::CepProtocol> hosts;
  ends.reserve(kHosts);
  hosts.reserve(kHosts);
  for (int h = 0; h < kHosts; ++h) {
    ends.emplace_back(net, h);
    hosts.emplace_back(mpisim::protocols::ProtocolContext{
        ends.back(), stats[static_cast<std::size_t>(h)], kL, lookaheads});
  }
  for (const auto& d :
       {bound(1, {40 * kL, 9 * kL, 25 * kL}), bound(2, {41 * kL, 60 * kL, 30 * kL})})
    for (auto& h : hosts)
      h.on_decision(d);
  for (int a = 0; a < kHosts; ++a)
    for (int b = 0; b < kHosts; ++b) {
      if (a == b) continue;
      const auto& holder = hosts[static_cast<std::size_t>(b)];
      EXPECT_EQ(hosts[static_cast<std::size_t>(a)].promised(b), holder.bound_from(a))
          << "host " << a << " to host " << b;
    }
  // After the second round host 2's LPs act no earlier than the least of host 0's 40L plus the
  // 3L path through host 1, host 1's 59L plus L, and its own 29L; then 4L to host 0.
  EXPECT_EQ(hosts[2].promised(0), 33 * kL);
  EXPECT_EQ(hosts[0].bound_from(2), 33 * kL);
}

TEST(RoundKnowledge, NoNullMessageSaysWhatTheRoundAlreadyTold) {
  TwoHosts h("nmp+cep");
  h.from_peer(5 * kL, true, 30 * kL);
  EXPECT_TRUE(h.protocol->on_idle(waiting(8 * kL, 6 * kL, true)));
  ASSERT_TRUE(h.next_null()); // the round's request, with host 0's ask
  // Host 1 may act at 11L and reach host 0 at 12L, whose answer reaches host 1 at 13L.
  h.protocol->on_decision(bound(1, {20 * kL, 12 * kL}));
  EXPECT_EQ(h.protocol->promised(1), 13 * kL);
  // A null message from host 1 below what the round gave host 0 leaves the round's bound.
  h.from_peer(9 * kL, true, 30 * kL);
  EXPECT_EQ(h.protocol->remote_bound(kAllHosts), 12 * kL);
  // Host 0's answer would say 13L, which host 1 holds already.
  EXPECT_FALSE(h.protocol->on_idle(waiting(21 * kL, 13 * kL, false)));
  EXPECT_FALSE(h.next_null());
  EXPECT_EQ(h.stats.null_rounds, 0u);
  // One lookahead more is news.
  EXPECT_FALSE(h.protocol->on_idle(waiting(22 * kL, 14 * kL, false)));
  const auto null = h.next_null();
  ASSERT_TRUE(null);
  EXPECT_EQ(null->value, 14 * kL);
  EXPECT_EQ(h.stats.null_rounds, 1u);
}

TEST(RoundKnowledge, APeerWhoseNextNeedIsUnknownGetsARoundNotAGuess) {
  // Host 1 asked, with a need the first round met; what it waits for next is unknown. Host 0's
  // answer cannot free itself (an exchange gives it 11L + L, it needs 20L): a round, no null.
  TwoHosts h("nmp+cep");
  h.from_peer(5 * kL, true, 7 * kL);
  EXPECT_TRUE(h.protocol->on_idle(waiting(8 * kL, 6 * kL, true)));
  const auto first = h.next_null();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->round, 1u);
  h.protocol->on_decision(bound(1, {8 * kL, 8 * kL}));
  EXPECT_TRUE(h.protocol->on_idle(waiting(20 * kL, 10 * kL, true)));
  const auto request = h.next_null();
  ASSERT_TRUE(request);
  EXPECT_EQ(request->round, 2u);
  EXPECT_EQ(h.stats.null_rounds, 0u);
}

TEST(RoundKnowledge, ARoundsSnapshotTellsAPeersUnmetNeed) {
  // As above, but the snapshot found host 1's LPs waiting for 11L, past the round's g of 8L: a
  // need host 1 never said in a null message (it joined the round and sent none). Host 0's
  // answer of 10L lets host 1 promise 11L and host 0 then 12L, past it: a null, no round.
  TwoHosts h("nmp+cep");
  h.from_peer(5 * kL, true, 7 * kL);
  EXPECT_TRUE(h.protocol->on_idle(waiting(8 * kL, 6 * kL, true)));
  ASSERT_TRUE(h.next_null());
  h.protocol->on_decision(bound(1, {8 * kL, 12 * kL}));
  EXPECT_FALSE(h.protocol->on_idle(waiting(20 * kL, 10 * kL, true)));
  const auto null = h.next_null();
  ASSERT_TRUE(null);
  EXPECT_EQ(null->round, 0u);
  EXPECT_EQ(null->value, 10 * kL);
  EXPECT_EQ(h.stats.null_rounds, 1u);
}

TEST(RoundKnowledge, AFinishedHostsReportWaitsForTheCoordinatorsNextIdlePass) {
  test::FakeNetwork net{2, 1u};
  test::FakeTransport zero(net, 0), one(net, 1);
  SyncStats s0, s1;
  const auto bound = [](Decision&) {}; // CEP's decision: the snapshot's global bound
  mpisim::protocols::GlobalRounds coordinator(zero, s0, bound), peer(one, s1, bound);
  const mpisim::protocols::Summary waits{20 * kL, 3, kTimeInfinity, 4, true};
  coordinator.report(waits);
  peer.report({kTimeInfinity, -1, kTimeInfinity, 0, false});
  const auto f = next_frame(zero);
  ASSERT_TRUE(f);
  ASSERT_EQ(f->kind, FrameKind::Report);
  // The coordinator's LPs may have waited for host 1: no round on the report they made before.
  EXPECT_TRUE(coordinator.on_report(1, f->body));
  EXPECT_FALSE(coordinator.take());
  // Its next idle pass finds them still waiting (on something else): now the round.
  coordinator.report(waits);
  const auto d = coordinator.take();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, Decision::Kind::Bound);
  EXPECT_EQ(d->g, 20 * kL);
}

TEST(RoundKnowledge, ARoundSaysWhichLpAloneCanActWithEachHostsActivity) {
  // Host 0's LP 3 polls; host 1's LPs all wait for what only it could cause: the round names LP 3
  // and hands each host its own activity back, so that a host whose LPs did something since the
  // snapshot can tell that the finding is stale (Synchronizer::apply).
  const auto round = [](mpisim::protocols::Summary peer_summary) {
    test::FakeNetwork net{2, 1u};
    test::FakeTransport zero(net, 0), one(net, 1);
    SyncStats s0, s1;
    const auto bound = [](Decision&) {};
    mpisim::protocols::GlobalRounds coordinator(zero, s0, bound), peer(one, s1, bound);
    peer.report(peer_summary);
    const auto f = next_frame(zero);
    EXPECT_TRUE(f && f->kind == FrameKind::Report);
    coordinator.on_report(1, f->body);
    coordinator.report({20 * kL, 3, kTimeInfinity, 1, false, 41});
    return coordinator.take();
  };
  const auto alone = round({kTimeInfinity, -1, kTimeInfinity, 2, false, 7});
  ASSERT_TRUE(alone);
  EXPECT_EQ(alone->kind, Decision::Kind::Bound);
  EXPECT_EQ(alone->alone, 3);
  EXPECT_EQ(alone->activity_of_host, (std::vector<std::uint64_t>{41, 7}));
  // An LP of host 1 can act too (at 30 L): nobody is alone.
  const auto two = round({30 * kL, 5, kTimeInfinity, 2, true, 7});
  ASSERT_TRUE(two);
  EXPECT_EQ(two->alone, -1);
}

} // namespace
