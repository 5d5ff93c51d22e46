// A simulation spread over several host processes: ranks' messages and replies to and from other
// hosts, and the synchronization protocol that bounds what they may still send.
#pragma once

#include <memory>
#include <vector>

#include "config.hpp"
#include "host_sync.hpp"
#include "local_bound.hpp"
#include "rank_map.hpp"
#include "transport.hpp"
#include "world.hpp"

namespace mpisim {

class HostLink {
public:
  enum class End { None, Finish, Deadlock };

  /// Initializes the transport (MPICH) among the host processes started by mpiexec.
  HostLink(const Config& config, int* argc, char*** argv);

  int host() const { return transport_.host(); }
  int hosts() const { return transport_.hosts(); }

  /// Starts serving `world` with `map`; `lookahead` is the smallest latency between two ranks.
  void attach(mpilite::World& world, const RankMap& map, SimTime lookahead);

  void send_message(mpilite::Message* m);
  void send_reply(const mpilite::Reply& reply);

  /// Takes in frames from other hosts while local ranks run (they may wake more ranks).
  void poll();

  /// Called when no local rank can run: polls other hosts, applies bounds, runs the protocol.
  /// Returns true when a rank became ready, false when the run ended (see end()).
  bool idle();
  End end() const { return end_; }

  const protocols::SyncStats& stats() const { return sync_->stats(); }
  /// Host 0 gets every host's bytes (a collective: all hosts call it).
  std::vector<std::vector<std::byte>> gather(const std::vector<std::byte>& mine) {
    return transport_.gather(mine);
  }
  [[noreturn]] void abort_all(int code) { transport_.abort_all(code); }

private:
  void handle(const protocols::Frame& f);
  bool apply_decision(const protocols::Decision& d);
  SimTime eot(const LocalK& k, SimTime remote) const;
  /// The hosts (and whether this one) that could send what `rank`'s undecided operations wait
  /// for: the paper's potential sources.
  struct Sources {
    bool local = false;
    std::uint64_t remote = 0;
  };
  Sources potential_sources(const mpilite::Rank& rank) const;
  void add_host_of(int world_rank, Sources& s) const;

  const Config& config_;
  protocols::Transport transport_;
  std::unique_ptr<protocols::HostSync> sync_;
  mpilite::World* world_ = nullptr;
  const RankMap* map_ = nullptr;
  SimTime lookahead_ = 1;
  End end_ = End::None;
};

} // namespace mpisim
