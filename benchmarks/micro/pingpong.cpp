// bench_pingpong: host cost of one simulated small message between two LPs of one host process
// (send, match, wake the receiver, switch), with compute charging off so only the simulator runs.
// usage: bench_pingpong [round trips] [network model]: the second argument names the model
// (default: the cluster preset's, nic), so that one run can tell what the model's queues cost.
#define MPISIM_NO_MAIN_RENAME 1
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "config.hpp"
#include "network_model.hpp"
#include "simulation.hpp"

namespace {

long g_round_trips = 1'000'000;

int pingpong_main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double buf = 0; // 8 bytes
  const int peer = 1 - rank;
  for (long i = 0; i < g_round_trips; ++i) {
    if (rank == 0) {
      MPI_Send(&buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(&buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_round_trips = std::atol(argv[1]);
  mpisim::Config config;
  config.ranks = 2;
  config.cpu = mpisim::CpuMode::Off;
  config.machine = mpisim::machine_preset("cluster");
  if (argc > 2) {
    if (!mpisim::find_network_model(argv[2])) {
      std::fprintf(stderr, "bench_pingpong: unknown network model '%s'\n", argv[2]);
      return 2;
    }
    config.machine.network = argv[2];
  }
  config.timeline = false; // no report is shown
  mpisim::Simulation sim(config);

  char name[] = "bench_pingpong";
  char* sim_argv[] = {name, nullptr};
  const auto start = std::chrono::steady_clock::now();
  const mpisim::RunSummary run = sim.run(pingpong_main, 1, sim_argv);
  const auto end = std::chrono::steady_clock::now();
  if (run.exit_code != 0) {
    std::fprintf(stderr, "bench_pingpong: simulation failed (%d): %s\n", run.exit_code,
                 run.message.c_str());
    return 1;
  }

  const double ns = std::chrono::duration<double, std::nano>(end - start).count();
  const double messages = 2.0 * static_cast<double>(g_round_trips);
  std::printf("bench_pingpong: %.1f ns/message (%ld round trips, %.3f s, predicted %.6f s, "
              "%llu context switches, network %s)\n",
              ns / messages, g_round_trips, ns * 1e-9, static_cast<double>(run.predicted) * 1e-12,
              static_cast<unsigned long long>(run.context_switches),
              config.machine.network.c_str());
  return 0;
}
