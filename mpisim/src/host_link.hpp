// This host process's link to the others: simulated messages and replies framed over the
// transport, and the synchronization core that bounds what other hosts may still send. With one
// host process the transport has no peers and the same code computes the exact local bounds.
#pragma once

#include <cstdlib>
#include <functional>
#include <memory>

#include "config.hpp"
#include "network_model.hpp"
#include "rank_map.hpp"
#include "synchronizer.hpp"
#include "transport.hpp"
#include "world.hpp"
#include "world_lps.hpp"

namespace mpisim {

class HostLink final : public protocols::FrameSink, public mpilite::HostDelivery {
public:
  /// Takes the transport (MPICH among the processes started by mpiexec, or one host alone).
  explicit HostLink(std::unique_ptr<protocols::Transport> transport);

  int host() const { return transport_->host(); }
  int hosts() const { return transport_->hosts(); }

  /// Starts serving `world` with `map`; the lookaheads (between any two ranks, and from this
  /// host's ranks to each other host's) come from the network model.
  void attach(const Config& config, mpilite::World& world, const RankMap& map,
              const NetworkModel& model);

  // mpilite::HostDelivery. Frames leave in batches when the host polls; another host may be
  // idle waiting for this one, so a batch leaves when the sending rank blocks rather than when
  // the whole host does.
  void send_remote(mpilite::Message* m) override;
  void reply_remote(const mpilite::Reply& reply) override;
  void transfer_remote(const mpilite::Transfer& t) override;
  bool polls() const override { return hosts() > 1; }
  /// Takes in frames from other hosts while local ranks run (they may wake more ranks).
  void poll() override;

  /// Every future frame from another host has a time stamp >= this (kTimeInfinity on one host).
  SimTime remote_bound() const { return sync_->remote_bound(); }
  /// Called when no local rank can run. `network`: what the network model holds back now.
  /// Returns true when a rank became ready or the network may decide more, false when the run
  /// ended (see end()).
  bool idle(const std::function<mpilite::HeldBack()>& network = {});
  /// RunEnd::None while the run goes on, then RunEnd::Finished or RunEnd::Deadlock.
  mpilite::RunEnd end() const { return end_; }

  const protocols::SyncStats& stats() const { return sync_->stats(); }
  /// Host 0 gets every host's bytes (a collective: all hosts call it).
  std::vector<std::vector<std::byte>> gather(const std::vector<std::byte>& mine) {
    return transport_->gather(mine);
  }
  /// Every host gets host 0's bytes (a collective: all hosts call it).
  std::vector<std::byte> broadcast(std::vector<std::byte> mine) {
    return transport_->broadcast(std::move(mine));
  }
  [[noreturn]] void abort_all(int code) { transport_->abort_all(code); }
  /// Ends every host process with `code` from a fault's signal handler (mpilite::FaultExit).
  [[noreturn]] void abort_from_fault(int code) {
    transport_->abort_from_fault(code);
    std::_Exit(code); // not reached: the compiler cannot see through the virtual call
  }

  // protocols::FrameSink
  void on_data(int from, std::span<const std::byte> body) override;
  void on_reply(int from, std::span<const std::byte> body) override;
  void on_transfer(int from, std::span<const std::byte> body) override;

private:
  /// Ends the run if a frame toward `to` has a timestamp below what this host promised it.
  void check_promise(int to, SimTime ts, const char* what, int src, int dst);

  std::unique_ptr<protocols::Transport> transport_;
  std::unique_ptr<protocols::Synchronizer> sync_;
  std::unique_ptr<WorldLps> lps_;
  mpilite::World* world_ = nullptr;
  const RankMap* map_ = nullptr;
  mpilite::RunEnd end_ = mpilite::RunEnd::None;
};

} // namespace mpisim
