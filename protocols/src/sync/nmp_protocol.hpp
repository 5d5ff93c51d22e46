// The null message protocol (Chandy-Misra-Bryant): each host keeps a channel clock per peer
// (every future message from that peer has a recv timestamp >= it) and, when idle, sends each
// peer that needs it a null message with its own earliest output time toward that peer, only when
// the value has grown. Null messages are sent on demand, so that programs whose receives all name
// their source need none: a host that needs bounds says so in its null messages, and its peers
// answer it (and only it) from then on.
#pragma once

#include <vector>

#include "sync_protocol.hpp"

namespace mpisim::protocols {

class NmpProtocol final : public SyncProtocol {
public:
  explicit NmpProtocol(const ProtocolContext& c);
  SimTime remote_bound(HostSet hosts) const override;
  void on_null(int from, const NullFrame& f) override;
  /// Sends the null messages the peers need; wants a global round only when the host is passive
  /// (no LP can act without input): to detect the end of the run or a deadlock.
  bool on_idle(const IdleState& s) override;
  void on_decision(const Decision& d) override;
  void on_finished(int host) override;
  SimTime promised(int host) const override { return null_sent_[static_cast<std::size_t>(host)]; }
  /// `host` holds `bound` on this host's future frames by other means (a global round): a null
  /// message that says no more would tell it nothing.
  void holds(int host, SimTime bound);
  /// The bound on future data from `host` alone, before the last global bound.
  SimTime bound_from(int host) const { return channel_[static_cast<std::size_t>(host)]; }

  /// What NMP+CEP reads of this NMP to choose between null messages and a global round.
  struct Outlook {
    /// A global round asked for by this host or a peer has not been decided yet.
    bool round_asked = false;
    /// The hosts whose bounds this host needs: those of its LPs' potential sources, or all
    /// once a peer asked for this host's own bounds, which depend on every host's.
    HostSet needed = 0;
    /// Whether this host has asked every host of `needed` for its bounds.
    bool asked = false;
    /// Whether one exchange of null messages with each peer of `needed` that asked for this
    /// host's bounds would let an LP proceed on one side: this host's promise passes what the
    /// peer's LPs wait for, or the peer's answer passes what this host's wait for (as far as the
    /// peer last said: a hint for the choice, never for safety). True when no such peer asked,
    /// and left true unless no round is asked, `asked` holds and the host is held by its peers.
    bool exchange_frees = true;
  };
  Outlook outlook(const IdleState& s) const;
  /// Asks every peer to join the global round that follows the last decision seen. Withdraws
  /// this host's asks for bounds unless `keep_asks`, in which case it also asks those in `asks`
  /// that it had not. `need`: what this host's LPs wait for.
  void ask_round(bool keep_asks, SimTime need, HostSet asks = 0);

private:
  HostSet needed(HostSet wanted) const;
  bool exchange_frees(HostSet hosts, const IdleState& s) const;
  bool asked(HostSet hosts) const;
  /// Takes note when the last global round met what `peer` last said it needs.
  void note_met_need(std::size_t peer);
  /// What `peer`'s LPs wait for, for choosing between null messages and a round: what it said,
  /// or a guess once a round has met that.
  SimTime judged_need(std::size_t peer) const;

  Transport& t_;
  SyncStats& stats_;
  const HostLookaheads& lookaheads_;
  std::vector<SimTime> channel_;   ///< bound on future data from each peer
  std::vector<SimTime> null_sent_; ///< last null value sent to each peer
  std::vector<char> peer_wants_;   ///< the peer's last null message asked for bounds
  std::vector<SimTime> peer_need_; ///< what the peer's LPs wait for, as it last said
  std::vector<SimTime> met_need_;  ///< the peer's last need a global round met (-1: none)
  std::vector<SimTime> step_;      ///< between the peer's last two needs that rounds met
  std::vector<char> wants_sent_;   ///< what this host last told each peer it wants
  SimTime floor_ = 0;              ///< the last global bound (rounds that found a passive host)
  std::uint64_t decisions_ = 0;    ///< decisions applied (the epoch of the last)
  std::uint64_t round_asked_ = 0;  ///< the latest epoch a round was asked for
};

} // namespace mpisim::protocols
