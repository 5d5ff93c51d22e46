// The ranks of a host as a network that decides arrivals later sees them (message_timing.hpp).
#pragma once

#include "message_timing.hpp"

namespace mpilite {

class World;

class WorldArrivals final : public Arrivals {
public:
  explicit WorldArrivals(World& w) : w_(w) {}
  SimTime earliest_action() override;
  void arrived(Message& m, SimTime at) override;
  void coming(int rank) override;
  void data_arrived(const DataTransfer& d, SimTime at, SimTime sent) override;
  void sent(int rank, std::uint64_t request, SimTime at) override;
  bool raise(const LaterArrival* bounds, std::size_t n) override;
  bool here(int rank) const override;
  void forward(Message& m, SimTime at) override;
  void forward_data(const DataTransfer& d, SimTime at) override;
  void release(Message& m) override;

private:
  World& w_;
};

} // namespace mpilite
