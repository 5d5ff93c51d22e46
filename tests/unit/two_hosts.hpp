// One host's protocol in a 2-host run on the fake transport, with the peer's end of the network
// to read what it sent, for tests that follow a protocol frame by frame on one thread.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string_view>

#include "fake_transport.hpp"
#include "sync_protocol.hpp"

namespace test {

inline constexpr mpisim::protocols::SimTime kLookahead = 1000;

/// The next frame `t` receives, if one was sent to it (the fake network holds some back for a
/// few polls).
inline std::optional<mpisim::protocols::Frame> next_frame(FakeTransport& t) {
  mpisim::protocols::Frame f;
  for (int tries = 0; tries < 64; ++tries)
    if (t.poll(f)) return f;
  return std::nullopt;
}

struct TwoHosts {
  explicit TwoHosts(std::string_view kind, int me = 0)
      : peer(1 - me), mine(net, me), theirs(net, 1 - me),
        protocol(mpisim::protocols::ProtocolRegistry::make(
            kind, {mine, stats, 10 * kLookahead, lookaheads})) {}

  /// The next null message the peer receives, if this host sent one.
  std::optional<mpisim::protocols::NullFrame> next_null() {
    const auto f = next_frame(theirs);
    if (!f) return std::nullopt;
    EXPECT_EQ(f->kind, mpisim::protocols::FrameKind::Null);
    return mpisim::protocols::decode_null(f->body);
  }

  /// The peer's null message to this host.
  void from_peer(mpisim::protocols::SimTime value, bool wants,
                 mpisim::protocols::SimTime need = mpisim::protocols::kTimeInfinity) {
    protocol->on_null(peer, mpisim::protocols::decode_null(mpisim::protocols::encode(
                                mpisim::protocols::NullFrame{value, wants, 0, need})));
  }

  int peer;
  FakeNetwork net{2, 1u};
  FakeTransport mine, theirs;
  mpisim::protocols::SyncStats stats;
  mpisim::protocols::HostLookaheads lookaheads{kLookahead, {}};
  std::unique_ptr<mpisim::protocols::SyncProtocol> protocol;
};

/// A host whose 4 LPs wait for a bound from its peer: the earliest acts at `need`, and what it
/// may still send the peer arrives no earlier than `eot`.
inline mpisim::protocols::IdleState waiting(mpisim::protocols::SimTime need,
                                            mpisim::protocols::SimTime eot,
                                            bool held_by_peers = true) {
  mpisim::protocols::IdleState s;
  s.summary = {need, 0, mpisim::protocols::kTimeInfinity, 4, true};
  s.wanted = mpisim::protocols::kAllHosts;
  s.eot_to = [eot](int) { return eot; };
  s.held_by_peers = held_by_peers;
  s.need = need;
  s.min_clock = [need] { return need - kLookahead; };
  return s;
}

} // namespace test
