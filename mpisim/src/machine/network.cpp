#include "network.hpp"

#include <utility>

#include "contention.hpp"

namespace mpisim {
namespace {

class LatencyNetwork final : public Network {
public:
  LatencyNetwork(const MachineParams& m, int ranks) : model_(m, ranks) {}
  const NetworkModel& model() const override { return model_; }

private:
  NetworkModel model_;
};

class ContentionNetwork final : public Network {
public:
  ContentionNetwork(const MachineParams& m, int ranks)
      : model_(m, ranks), flows_(std::make_unique<Contention>(model_)) {}
  const NetworkModel& model() const override { return model_; }
  void on_send(mpilite::Message& m, SimTime injected, std::size_t data_bytes) override {
    flows_->on_send(m, injected, data_bytes);
  }
  bool defer_data(const mpilite::DataTransfer& d) override { return flows_->defer_data(d); }
  bool settle(mpilite::World& world, SimTime& held) override { return flows_->settle(world, held); }
  void reset() override { flows_ = std::make_unique<Contention>(model_); }

private:
  NetworkModel model_;
  std::unique_ptr<Contention> flows_;
};

using Factory = std::unique_ptr<Network> (*)(const MachineParams&, int);

template <class N> std::unique_ptr<Network> make(const MachineParams& m, int ranks) {
  return std::make_unique<N>(m, ranks);
}

// One entry per MPISIM_NETWORK value (machine_file.cpp spells the names).
constexpr std::pair<NetworkMode, Factory> kNetworks[] = {
    {NetworkMode::Latency, make<LatencyNetwork>},
    {NetworkMode::Contention, make<ContentionNetwork>},
};

} // namespace

std::unique_ptr<Network> make_network(const MachineParams& m, int ranks) {
  for (const auto& [mode, factory] : kNetworks)
    if (mode == m.network) return factory(m, ranks);
  return make<LatencyNetwork>(m, ranks);
}

} // namespace mpisim
