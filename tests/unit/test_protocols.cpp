// The synchronization core under every protocol and DET setting, on 1 to 4 hosts of an
// in-process transport that delivers frames in random interleavings: no LP ever receives a
// message below a bound it was given, every run ends, the final clocks are those of one host, and
// a deadlocked program is found deadlocked on every host.
#include <gtest/gtest.h>

#include <cctype>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <thread>

#include "fake_transport.hpp"
#include "scripted_lps.hpp"
#include "synchronizer.hpp"

namespace {

using mpisim::protocols::Synchronizer;
using test::Script;
using test::SimTime;
using test::Step;

constexpr SimTime kLatency = 1000;

/// Rounds of a random permutation: each LP computes a random time, sends to its image, and
/// receives one message of the round's tag, from its preimage by name or from any source (about
/// half of each).
std::vector<Script> permutation_rounds(int lps, int rounds, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Script> s(static_cast<std::size_t>(lps));
  std::vector<int> perm(static_cast<std::size_t>(lps));
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < lps; ++i)
      perm[static_cast<std::size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<int> inverse(perm.size());
    for (int i = 0; i < lps; ++i)
      inverse[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = i;
    for (int i = 0; i < lps; ++i) {
      auto& me = s[static_cast<std::size_t>(i)];
      me.push_back({Step::Kind::Compute, std::uniform_int_distribution<SimTime>(0, 5000)(rng)});
      me.push_back({Step::Kind::Send, 0, perm[static_cast<std::size_t>(i)], r});
      const bool any = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
      me.push_back({Step::Kind::Recv, 0, any ? -1 : inverse[static_cast<std::size_t>(i)], r});
    }
  }
  return s;
}

/// 24 LPs whose rounds mix traffic across hosts with exchanges inside them: each LP sends one
/// message of a random permutation, then `local` times swaps a message with LP i + 12 mod 24 (on
/// the same host for 1 to 4 hosts) by name, then receives the permutation's message by name or from
/// any source. Messages from other hosts arrive, with low timestamps, while their receivers wait
/// only for LPs of their own host.
std::vector<Script> rounds_with_local_exchanges(int rounds, int local, unsigned seed) {
  constexpr int kLps = 24;
  std::mt19937 rng(seed);
  std::vector<Script> s(kLps);
  std::vector<int> perm(kLps), inverse(kLps);
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < kLps; ++i)
      perm[static_cast<std::size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int i = 0; i < kLps; ++i)
      inverse[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = i;
    for (int i = 0; i < kLps; ++i) {
      auto& me = s[static_cast<std::size_t>(i)];
      me.push_back({Step::Kind::Compute, std::uniform_int_distribution<SimTime>(0, 5000)(rng)});
      me.push_back({Step::Kind::Send, 0, perm[static_cast<std::size_t>(i)], 2 * r});
      for (int x = 0; x < local; ++x) {
        me.push_back({Step::Kind::Compute, std::uniform_int_distribution<SimTime>(0, 300)(rng)});
        me.push_back({Step::Kind::Send, 0, (i + 12) % 24, 2 * r + 1});
        me.push_back({Step::Kind::Recv, 0, (i + 12) % 24, 2 * r + 1});
      }
      const bool any = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
      me.push_back({Step::Kind::Recv, 0, any ? -1 : inverse[static_cast<std::size_t>(i)], 2 * r});
    }
  }
  return s;
}

struct Result {
  std::vector<mpilite::RunEnd> outcomes;           ///< per host
  std::vector<mpisim::protocols::SyncStats> stats; ///< per host
  std::vector<SimTime> clocks;                     ///< per LP
  std::vector<std::string> violations;
};

/// Every pair of LPs at kLatency.
SimTime uniform(int, int) {
  return kLatency;
}

/// LPs of the same parity share a "node": 5x closer than LPs of different parity. On 2 and 4
/// hosts (LP i on host i % hosts) no node spans two hosts, so some or all host pairs have the
/// far latency as their lookahead.
SimTime nodes_by_parity(int src, int dst) {
  return src % 2 == dst % 2 ? kLatency / 5 : kLatency;
}

Result simulate(const std::vector<Script>& scripts, int hosts, std::string_view protocol, bool det,
                unsigned seed, const test::Latency& latency = uniform) {
  // The lookaheads as the simulator derives them from its network model: the smallest latency
  // between two LPs, and from each host's LPs to each other host's.
  const int n = static_cast<int>(scripts.size());
  SimTime lookahead = std::numeric_limits<SimTime>::max();
  std::vector<std::vector<SimTime>> to(
      static_cast<std::size_t>(hosts),
      std::vector<SimTime>(static_cast<std::size_t>(hosts), std::numeric_limits<SimTime>::max()));
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      lookahead = std::min(lookahead, latency(a, b));
      auto& l = to[static_cast<std::size_t>(a % hosts)][static_cast<std::size_t>(b % hosts)];
      l = std::min(l, latency(a, b));
    }
  test::FakeNetwork net(hosts, seed);
  Result r;
  r.outcomes.resize(static_cast<std::size_t>(hosts));
  r.stats.resize(static_cast<std::size_t>(hosts));
  r.clocks.assign(scripts.size(), -1);
  std::vector<std::unique_ptr<test::ScriptedHost>> lps;
  for (int h = 0; h < hosts; ++h)
    lps.push_back(std::make_unique<test::ScriptedHost>(scripts, h, hosts, latency, det));
  std::vector<std::thread> threads;
  for (int h = 0; h < hosts; ++h)
    threads.emplace_back([&, h] {
      test::FakeTransport t(net, h);
      mpisim::protocols::SyncOptions o;
      o.protocol = std::string(protocol);
      o.lookahead = lookahead;
      if (hosts > 1) o.lookahead_between = to;
      Synchronizer sync(t, o);
      r.outcomes[static_cast<std::size_t>(h)] = lps[static_cast<std::size_t>(h)]->run(sync);
      r.stats[static_cast<std::size_t>(h)] = sync.stats();
    });
  for (auto& t : threads)
    t.join();
  for (const auto& l : lps) {
    l->clocks(r.clocks);
    r.violations.insert(r.violations.end(), l->violations().begin(), l->violations().end());
  }
  return r;
}

struct Setting {
  std::string protocol;
  bool det;
};

class EveryProtocol : public ::testing::TestWithParam<Setting> {};

TEST_P(EveryProtocol, SafeEndsAndEqualsOneHost) {
  const auto [protocol, det] = GetParam();
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto scripts = permutation_rounds(12, 20, seed);
    const Result one = simulate(scripts, 1, "nmp+cep", false, seed);
    ASSERT_EQ(one.outcomes[0], mpilite::RunEnd::Finished);
    for (SimTime c : one.clocks)
      ASSERT_GT(c, 0) << "every LP finishes on one host";
    for (int hosts : {1, 2, 3, 4}) {
      const Result r = simulate(scripts, hosts, protocol, det, seed * 31 + hosts);
      EXPECT_TRUE(r.violations.empty()) << hosts << " hosts: " << r.violations.front();
      for (auto o : r.outcomes)
        EXPECT_EQ(o, mpilite::RunEnd::Finished) << hosts << " hosts, seed " << seed;
      EXPECT_EQ(r.clocks, one.clocks) << hosts << " hosts, seed " << seed;
    }
  }
}

TEST_P(EveryProtocol, WaitsWithinAHostAreSafe) {
  // While every LP of a host waits only for LPs of that host, the host takes its bounds from
  // itself alone; messages from other hosts that arrive meanwhile must still be ordered right.
  const auto [protocol, det] = GetParam();
  for (unsigned seed : {8u, 9u}) {
    const auto scripts = rounds_with_local_exchanges(8, 3, seed);
    const Result one = simulate(scripts, 1, "nmp+cep", false, seed);
    ASSERT_EQ(one.outcomes[0], mpilite::RunEnd::Finished);
    for (int hosts : {2, 3, 4}) {
      const Result r = simulate(scripts, hosts, protocol, det, seed * 13 + hosts);
      EXPECT_TRUE(r.violations.empty()) << hosts << " hosts: " << r.violations.front();
      for (auto o : r.outcomes)
        EXPECT_EQ(o, mpilite::RunEnd::Finished) << hosts << " hosts, seed " << seed;
      EXPECT_EQ(r.clocks, one.clocks) << hosts << " hosts, seed " << seed;
    }
  }
}

TEST_P(EveryProtocol, PerHostPairLookaheadIsSafe) {
  // Null messages promise each peer the lookahead toward it (5x the smallest latency on 2 hosts;
  // on 4, hosts of the same parity keep the small one): still no message below a bound, and the
  // clocks of one host.
  const auto [protocol, det] = GetParam();
  for (unsigned seed : {4u, 5u}) {
    const auto scripts = permutation_rounds(12, 20, seed);
    const Result one = simulate(scripts, 1, "nmp+cep", false, seed, nodes_by_parity);
    for (int hosts : {2, 4}) {
      const Result r = simulate(scripts, hosts, protocol, det, seed * 7 + hosts, nodes_by_parity);
      EXPECT_TRUE(r.violations.empty()) << hosts << " hosts: " << r.violations.front();
      for (auto o : r.outcomes)
        EXPECT_EQ(o, mpilite::RunEnd::Finished) << hosts << " hosts, seed " << seed;
      EXPECT_EQ(r.clocks, one.clocks) << hosts << " hosts, seed " << seed;
    }
  }
}

TEST_P(EveryProtocol, FindsADeadlockOnEveryHost) {
  const auto [protocol, det] = GetParam();
  // LPs 0 and 1 wait for each other; the others exchange a message first and finish.
  std::vector<Script> s(6);
  s[0] = {{Step::Kind::Recv, 0, 1}, {Step::Kind::Send, 0, 1}};
  s[1] = {{Step::Kind::Recv, 0, -1}, {Step::Kind::Send, 0, 0}};
  for (int i = 2; i < 6; ++i)
    s[static_cast<std::size_t>(i)] = {
        {Step::Kind::Compute, 700 * i}, {Step::Kind::Send, 0, i ^ 1}, {Step::Kind::Recv, 0, -1}};
  for (int hosts : {1, 2, 3}) {
    const Result r = simulate(s, hosts, protocol, det, 5u + static_cast<unsigned>(hosts));
    EXPECT_TRUE(r.violations.empty());
    for (auto o : r.outcomes)
      EXPECT_EQ(o, mpilite::RunEnd::Deadlock) << hosts << " hosts";
    for (int i = 2; i < 6; ++i)
      EXPECT_GT(r.clocks[static_cast<std::size_t>(i)], 0) << "LP " << i << " finished";
    EXPECT_EQ(r.clocks[0], -1);
    EXPECT_EQ(r.clocks[1], -1);
  }
}

/// LP 0 and LP 1 (on two hosts) trade `n` messages, computing `dt` before each send.
std::vector<Script> remote_pingpong(int n, SimTime dt) {
  std::vector<Script> s(2);
  for (int x = 0; x < n; ++x) {
    s[0].insert(s[0].end(),
                {{Step::Kind::Compute, dt}, {Step::Kind::Send, 0, 1}, {Step::Kind::Recv, 0, 1}});
    s[1].insert(s[1].end(),
                {{Step::Kind::Recv, 0, 0}, {Step::Kind::Compute, dt}, {Step::Kind::Send, 0, 0}});
  }
  return s;
}

TEST(NmpCep, TwoHostsHeldByEachOtherTakeARoundInsteadOfManyNullMessages) {
  // Each LP waits for the other, 50 lookaheads ahead: null messages raise the two bounds one
  // lookahead per exchange, a global round at once. The composite takes the round.
  const auto scripts = remote_pingpong(20, 50 * kLatency);
  const Result nmp = simulate(scripts, 2, "nmp", false, 5u);
  const Result both = simulate(scripts, 2, "nmp+cep", false, 5u);
  EXPECT_EQ(both.clocks, nmp.clocks);
  for (int h = 0; h < 2; ++h) {
    EXPECT_GT(nmp.stats[static_cast<std::size_t>(h)].rounds(), 500u);
    EXPECT_LT(both.stats[static_cast<std::size_t>(h)].rounds(), 80u);
    EXPECT_GT(both.stats[static_cast<std::size_t>(h)].cep_rounds, 0u);
  }
}

TEST(NmpCep, ThirdHostsMeanGlobalRoundsOnly) {
  // With a third host a bound would wait on a chain of exchanges: every bound comes from a
  // global round.
  const auto scripts = permutation_rounds(12, 20, 7u);
  const Result two = simulate(scripts, 2, "nmp+cep", false, 11u);
  for (const auto& s : two.stats)
    EXPECT_GT(s.null_rounds, 0u);
  for (int hosts : {3, 4}) {
    const Result r = simulate(scripts, hosts, "nmp+cep", false, 13u);
    EXPECT_EQ(r.clocks, two.clocks);
    for (const auto& s : r.stats) {
      EXPECT_EQ(s.null_rounds, 0u) << hosts << " hosts";
      EXPECT_GT(s.cep_rounds, 0u) << hosts << " hosts";
    }
  }
}

TEST(EveryBoundProtocol, HostsThatWaitOnlyOnThemselvesExchangeNothing) {
  // Pairs of LPs on the same host trade messages by name, DET off: each host is alone until the
  // end, so no protocol sends a null message or runs a bound round (the paper's pingpong pairs).
  std::vector<Script> pairs(24);
  for (int i = 0; i < 24; ++i)
    for (int x = 0; x < 20; ++x) {
      auto& me = pairs[static_cast<std::size_t>(i)];
      me.push_back({Step::Kind::Compute, 100 * (i % 5) + x});
      me.push_back({Step::Kind::Send, 0, (i + 12) % 24, x});
      me.push_back({Step::Kind::Recv, 0, (i + 12) % 24, x});
    }
  const Result one = simulate(pairs, 1, "nmp+cep", false, 3u);
  for (auto protocol : {"nmp", "cep", "nmp+cep"})
    for (int hosts : {2, 4}) {
      const Result r = simulate(pairs, hosts, protocol, false, 17u);
      EXPECT_EQ(r.clocks, one.clocks);
      for (const auto& s : r.stats) {
        EXPECT_EQ(s.null_messages, 0u) << hosts << " hosts";
        EXPECT_EQ(s.cep_rounds, 0u) << hosts << " hosts";
      }
    }
}

/// One host's LP waiting for a message held by the network model: each raise of its bound past
/// its next decision moves that decision one step later without waking it (the network decides
/// the arrival a step at a time), until the `steps`th wakes it.
class CreepingLp final : public mpisim::protocols::LocalLps, public mpisim::protocols::FrameSink {
public:
  explicit CreepingLp(int steps) : left_(steps) {}
  int raises = 0;

  std::int64_t not_done() const override { return 1; }
  bool any_ready() const override { return ready_; }
  void undecided(const std::function<void(std::int64_t, SimTime)>& visit) override {
    if (!ready_) visit(0, act_);
  }
  mpisim::protocols::Sources sources(std::int64_t) const override { return {true, 0}; }
  bool closed() const override { return true; }
  bool raise(bool, const std::function<mpisim::protocols::LpBound(std::int64_t)>& bound) override {
    ++raises;
    if (ready_ || bound(0).now <= act_) return false;
    act_ += kLatency;
    ready_ = --left_ == 0;
    return ready_;
  }
  SimTime min_clock() const override { return act_; }
  SimTime earliest_action() const override { return act_; }
  void on_data(int, std::span<const std::byte>) override {}
  void on_reply(int, std::span<const std::byte>) override {}
  void on_transfer(int, std::span<const std::byte>) override {}

private:
  int left_;
  SimTime act_ = 5 * kLatency;
  bool ready_ = false;
};

/// The synchronization core of a run on one host process, `protocol` and kLatency.
struct OneHost {
  explicit OneHost(const char* protocol) : sync(t, options(protocol)) {}
  static mpisim::protocols::SyncOptions options(const char* protocol) {
    mpisim::protocols::SyncOptions o;
    o.protocol = protocol;
    o.lookahead = kLatency;
    return o;
  }
  test::FakeNetwork net{1, 3u};
  test::FakeTransport t{net, 0};
  Synchronizer sync;
};

TEST(EveryBoundProtocol, OneHostWhoseRaiseMovesADecisionIsNotDeadlocked) {
  // A host alone that reports is judged deadlocked: it must first raise until nothing moves.
  for (auto protocol : {"nmp", "cep", "quantum", "nmp+cep"}) {
    OneHost host(protocol);
    CreepingLp lp(4);
    EXPECT_EQ(host.sync.idle(lp, lp), mpilite::RunEnd::None) << protocol;
    EXPECT_TRUE(lp.any_ready()) << protocol;
    EXPECT_EQ(lp.raises, 4) << protocol;
  }
}

/// LPs of one host, `not_done` unfinished, of which those in `acts` have something to decide
/// (a test waiting for its answer, at that act): the ones a raise lets act become ready. Records
/// what the core says of an LP that alone can act.
class PollingLps final : public mpisim::protocols::LocalLps, public mpisim::protocols::FrameSink {
public:
  PollingLps(std::int64_t not_done, std::map<std::int64_t, SimTime> acts, bool ready = false)
      : not_done_(not_done), acts_(std::move(acts)), ready_(ready) {}
  std::vector<std::int64_t> alone;

  std::int64_t not_done() const override { return not_done_; }
  bool any_ready() const override { return ready_; }
  void undecided(const std::function<void(std::int64_t, SimTime)>& visit) override {
    for (const auto& [id, act] : acts_)
      visit(id, act);
  }
  mpisim::protocols::Sources sources(std::int64_t) const override { return {true, 0}; }
  bool closed() const override { return true; }
  bool raise(bool, const std::function<mpisim::protocols::LpBound(std::int64_t)>& bound) override {
    for (const auto& [id, act] : acts_)
      ready_ = bound(id).now > act || ready_;
    return ready_;
  }
  void only_one_acts(std::int64_t id, std::uint64_t) override { alone.push_back(id); }
  SimTime min_clock() const override { return 0; }
  SimTime earliest_action() const override { return 0; }
  void on_data(int, std::span<const std::byte>) override {}
  void on_reply(int, std::span<const std::byte>) override {}
  void on_transfer(int, std::span<const std::byte>) override {}

private:
  std::int64_t not_done_;
  std::map<std::int64_t, SimTime> acts_;
  bool ready_;
};

TEST(EveryBoundProtocol, OneHostFindsTheLpThatAloneCanAct) {
  // A rank polling while every other waits for what only it could send: the core names it, so
  // that the simulation can end a poll loop that never ends (p2p.cpp, spend_poll).
  for (auto protocol : {"nmp", "cep", "nmp+cep"}) {
    const auto idle = [&](PollingLps& lps) {
      OneHost host(protocol);
      EXPECT_EQ(host.sync.idle(lps, lps), mpilite::RunEnd::None) << protocol;
      return lps.alone;
    };
    PollingLps poller(3, {{1, 7 * kLatency}});
    EXPECT_EQ(idle(poller), std::vector<std::int64_t>{1}) << protocol;
    PollingLps two(3, {{1, 7 * kLatency}, {2, 9 * kLatency}});
    EXPECT_EQ(idle(two), std::vector<std::int64_t>{-1}) << protocol;
    PollingLps running(3, {{1, 7 * kLatency}}, true);
    EXPECT_EQ(idle(running), std::vector<std::int64_t>{-1}) << protocol;
  }
}

std::string name(const ::testing::TestParamInfo<Setting>& i) {
  std::string n;
  for (char c : i.param.protocol)
    n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n + (i.param.det ? "_det" : "");
}

/// Every registered protocol, DET off and on.
std::vector<Setting> every_setting() {
  std::vector<Setting> s;
  for (const auto& p : mpisim::protocols::ProtocolRegistry::all())
    for (bool det : {false, true})
      s.push_back({std::string(p.name), det});
  return s;
}

INSTANTIATE_TEST_SUITE_P(Protocols, EveryProtocol, ::testing::ValuesIn(every_setting()), name);

TEST(ProtocolRegistry, ListsExactlyTheDocumentedProtocols) {
  // docs/protocols.md and DESIGN.md name these; a new protocol adds its name here and there.
  EXPECT_EQ(mpisim::protocols::ProtocolRegistry::names(), "cep, nmp, nmp+cep, quantum");
  for (const auto& p : mpisim::protocols::ProtocolRegistry::all()) {
    EXPECT_FALSE(p.description.empty()) << p.name;
    ASSERT_NE(mpisim::protocols::ProtocolRegistry::find(p.name), nullptr) << p.name;
    EXPECT_EQ(mpisim::protocols::ProtocolRegistry::find(p.name)->name, p.name);
  }
  EXPECT_EQ(mpisim::protocols::ProtocolRegistry::find("nmp-cep"), nullptr);
  EXPECT_EQ(mpisim::protocols::ProtocolRegistry::find(mpisim::protocols::kDefaultProtocol)->name,
            "nmp+cep");
}

TEST(ProtocolRegistry, EveryProtocolBuildsAndRunsAPingPongOnTwoHosts) {
  // A wildcard ping-pong between LPs of two hosts: each protocol must give bounds that let it
  // end, with the one-host clocks.
  std::vector<Script> pair(2);
  for (int x = 0; x < 10; ++x) {
    pair[0].push_back({Step::Kind::Send, 0, 1, x});
    pair[0].push_back({Step::Kind::Recv, 0, -1, x});
    pair[1].push_back({Step::Kind::Recv, 0, -1, x});
    pair[1].push_back({Step::Kind::Compute, 50 * x});
    pair[1].push_back({Step::Kind::Send, 0, 0, x});
  }
  const Result one = simulate(pair, 1, mpisim::protocols::kDefaultProtocol, false, 1u);
  for (const auto& p : mpisim::protocols::ProtocolRegistry::all()) {
    const Result r = simulate(pair, 2, p.name, false, 7u);
    EXPECT_TRUE(r.violations.empty()) << p.name;
    EXPECT_EQ(r.clocks, one.clocks) << p.name;
    for (auto o : r.outcomes)
      EXPECT_EQ(o, mpilite::RunEnd::Finished) << p.name;
  }
}

} // namespace
