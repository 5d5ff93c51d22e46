// NMP+CEP, the composite of the MPI-SIM paper: null messages where one exchange gives the bound,
// a global round where a chain of exchanges would. A peer's promise is bounded by what its own
// peers promised it, so a bound needed from a peer comes in one exchange only when no third host
// exists (two hosts); otherwise the host asks every host for a global round (the request rides on
// null messages), all join it, and one round gives every host the bound of the whole snapshot.
// Built from the two protocols, not a third implementation.
#pragma once

#include "cep_protocol.hpp"
#include "nmp_protocol.hpp"

namespace mpisim::protocols {

class NmpCepProtocol final : public SyncProtocol {
public:
  explicit NmpCepProtocol(const ProtocolContext& c)
      : nmp_(c), cep_(c), host_(c.transport.host()), hosts_(c.transport.hosts()) {}
  SimTime remote_bound(HostSet hosts) const override;
  void on_null(int from, const NullFrame& f) override { nmp_.on_null(from, f); }
  bool on_idle(const IdleState& s) override;
  void on_decision(const Decision& d) override;
  void on_finished(int host) override {
    nmp_.on_finished(host);
    cep_.on_finished(host);
  }
  SimTime promised(int host) const override { return nmp_.promised(host); }

private:
  /// Whether the bounds of `needed` depend on hosts other than this one and the needed ones.
  bool depends_on_third_hosts(HostSet needed) const;

  NmpProtocol nmp_;
  CepProtocol cep_;
  int host_, hosts_;
};

} // namespace mpisim::protocols
