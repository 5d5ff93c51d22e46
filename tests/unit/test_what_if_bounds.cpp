// The two bounds of a what-if study: the ideal network (MPISIM_NETWORK=ideal), which takes every
// network cost away, and the ideal balance a replay charges (balanced_compute).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "replay_compute.hpp"
#include "scratch_dir.hpp"
#include "sim_harness.hpp"

namespace {

using mpisim::SimTime;
using test::clocks_of;

constexpr SimTime kUs = 1'000'000;

TEST(IdealNetwork, OnlyComputeAndWaitingForItRemain) {
  // Rank 0 computes 5 us and sends 100 000 bytes (rendezvous on the harness's machine: 100 us
  // at 1 GB/s, o_s 100 ns, o_r 200 ns, L 1 us); rank 1 answers with a message of its own and
  // both join a barrier. Nothing but rank 0's compute takes time.
  mpisim::Config c = test::config(2);
  c.machine.network = "ideal";
  const auto clocks = clocks_of(c, [](int me) {
    std::vector<char> buf(100'000, 3);
    if (me == 0) {
      MPISIM_Compute(5e-6);
      MPI_Send(buf.data(), 100'000, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), 10, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf.data(), 100'000, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      EXPECT_EQ(buf[99'999], 3);
      MPI_Sendrecv_replace(buf.data(), 10, MPI_CHAR, 0, 1, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (me == 0) MPI_Send(buf.data(), 10, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  });
  EXPECT_EQ(clocks, (std::vector<SimTime>{5 * kUs, 5 * kUs}));
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(IdealBalance, EachStepChargesTheMeanOfTheRanksThatHaveIt) {
  const std::string dir = test::scratch_dir("IdealBalance", "Means");
  // Rank 0 has three stretches, rank 1 two, rank 2 one: the k-th mean is over those that have a
  // k-th. Measured compute scales with the CPU scale ratio, declared compute does not.
  write(dir + "/rank-0.ops", "init\ncompute 100 0\nbarrier 0\ncompute 0 300\ncompute 5 0\n");
  write(dir + "/rank-1.ops", "init\ncompute 200 1\nbarrier 0\ncompute 0 400\n");
  write(dir + "/rank-2.ops", "init\ncompute 0 0\nbarrier 0\n");
  EXPECT_EQ(mpisim::balanced_compute(dir, 3, 1.0), (std::vector<SimTime>{100, 350, 5}));
  // (200 + 401 + 0) / 3 rounds down; 2 x 5 alone.
  EXPECT_EQ(mpisim::balanced_compute(dir, 3, 2.0), (std::vector<SimTime>{200, 350, 10}));
}

TEST(IdealBalance, ABadComputeLineIsNamedWithItsFileAndLine) {
  const std::string dir = test::scratch_dir("IdealBalance", "Bad");
  write(dir + "/rank-0.ops", "init\ncompute 1 1\n");
  write(dir + "/rank-1.ops", "init\ncompute -4 1\n");
  try {
    mpisim::balanced_compute(dir, 2, 1.0);
    FAIL() << "a negative time was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank-1.ops:2: a compute line needs two times"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(mpisim::balanced_compute(dir, 3, 1.0), std::runtime_error); // no rank-2.ops
}

} // namespace
