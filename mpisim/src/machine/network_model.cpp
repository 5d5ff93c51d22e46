#include "network_model.hpp"

#include <utility>

#include "contention.hpp"

namespace mpisim {
namespace {

class LatencyModel final : public NetworkModel {
public:
  LatencyModel(const MachineParams& m, int ranks) : costs_(m, ranks) {}
  const LinkCosts& costs() const override { return costs_; }

private:
  LinkCosts costs_;
};

class ContentionModel final : public NetworkModel {
public:
  ContentionModel(const MachineParams& m, int ranks)
      : costs_(m, ranks), flows_(std::make_unique<Contention>(costs_)) {}
  const LinkCosts& costs() const override { return costs_; }
  void on_send(mpilite::Message& m, SimTime injected, std::size_t data_bytes) override {
    flows_->on_send(m, injected, data_bytes);
  }
  bool defer_data(const mpilite::DataTransfer& d) override { return flows_->defer_data(d); }
  bool settle(mpilite::World& world, SimTime& held) override { return flows_->settle(world, held); }
  void reset() override { flows_ = std::make_unique<Contention>(costs_); }

private:
  LinkCosts costs_;
  std::unique_ptr<Contention> flows_;
};

using Factory = std::unique_ptr<NetworkModel> (*)(const MachineParams&, int);

template <class N> std::unique_ptr<NetworkModel> make(const MachineParams& m, int ranks) {
  return std::make_unique<N>(m, ranks);
}

// One entry per MPISIM_NETWORK value (machine_file.cpp spells the names).
constexpr std::pair<NetworkMode, Factory> kNetworks[] = {
    {NetworkMode::Latency, make<LatencyModel>},
    {NetworkMode::Contention, make<ContentionModel>},
};

} // namespace

std::unique_ptr<NetworkModel> make_network(const MachineParams& m, int ranks) {
  for (const auto& [mode, factory] : kNetworks)
    if (mode == m.network) return factory(m, ranks);
  return make<LatencyModel>(m, ranks);
}

} // namespace mpisim
