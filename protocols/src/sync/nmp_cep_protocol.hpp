// NMP+CEP, the composite of the MPI-SIM paper: null messages normally, a global round when null
// messages stop making progress. Built from the two protocols, not a third implementation.
#pragma once

#include "cep_protocol.hpp"
#include "nmp_protocol.hpp"

namespace mpisim::protocols {

class NmpCepProtocol final : public SyncProtocol {
public:
  explicit NmpCepProtocol(const ProtocolContext& c) : nmp_(c), cep_(c) {}
  SimTime remote_bound(HostSet hosts) const override;
  void on_null(int from, const NullFrame& f) override { nmp_.on_null(from, f); }
  bool on_idle(const IdleState& s) override;
  void on_decision(const Decision& d) override;
  void on_progress() override {
    stalled_passes_ = 0;
    awaiting_round_ = false;
  }
  SimTime promised(int host) const override { return nmp_.promised(host); }

private:
  NmpProtocol nmp_;
  CepProtocol cep_;
  int stalled_passes_ = 0; ///< idle passes in a row in which null messages made no progress
  /// This host asked for a global round: null messages wait for its decision (every idle peer
  /// then stalls and reports too, so the round completes).
  bool awaiting_round_ = false;
};

} // namespace mpisim::protocols
