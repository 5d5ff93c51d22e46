// Runs simulations inside a test: a Config with exact, round-number costs and a helper that
// simulates a function as every rank's main.
#pragma once

#ifndef MPISIM_NO_MAIN_RENAME
#define MPISIM_NO_MAIN_RENAME 1
#endif
#include <mpi.h>
#include <mpisim.h>

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "config.hpp"
#include "simulation.hpp"

namespace test {

/// Costs chosen so that analytic times are whole picoseconds: 1 byte = 1000 ps at 1 GB/s.
inline mpisim::MachineParams round_machine() {
  mpisim::MachineParams m;
  m.name = "test";
  m.send_overhead = 100'000; // 100 ns
  m.recv_overhead = 200'000; // 200 ns
  m.latency = 1'000'000;     // 1 us
  m.bandwidth = 1e9;         // 1 GB/s
  m.eager_limit = 65536;
  m.poll_overhead = 50'000; // 50 ns
  m.cpu_scale = 1;
  return m;
}

inline mpisim::Config config(int ranks) {
  mpisim::Config c;
  c.ranks = ranks;
  c.cpu = mpisim::CpuMode::Off;
  c.machine = round_machine();
  c.stack_size = 64 * 1024;
  return c;
}

/// Simulates `body` as the main of every rank.
inline mpisim::RunSummary simulate(const mpisim::Config& c, std::function<int(int, char**)> body) {
  mpisim::Simulation sim(c);
  char name[] = "test";
  char* argv[] = {name, nullptr};
  return sim.run(body, 1, argv);
}

inline int world_rank();

/// Simulates `body(rank)` between MPI_Init and MPI_Finalize on every rank; each rank's clock
/// after it. The run must finish.
inline std::vector<mpisim::SimTime> clocks_of(const mpisim::Config& c,
                                              std::function<void(int)> body) {
  std::vector<mpisim::SimTime> clocks(static_cast<std::size_t>(c.ranks), -1);
  auto r = simulate(c, [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = world_rank();
    body(me);
    clocks[static_cast<std::size_t>(me)] = MPISIM_Clock_ps();
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Finished);
  return clocks;
}

inline int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

} // namespace test
