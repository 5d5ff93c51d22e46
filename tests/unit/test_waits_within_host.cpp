// Whether every rank of a host process waits only for ranks of that process (the synchronization
// core then needs no bound from other processes): the answer from the ranks that changed
// (mpilite::all_wait_within_host) is the walk over every rank's receives, at every idle round,
// as ranks come to wait on another process after having been found not to.
#include <gtest/gtest.h>
#include <mpisim.h>

#include <vector>

#include "fake_kernel.hpp"

namespace {

/// Ranks 0 and 1 of a world of 3; rank 2 is on another host process and never sends. Rank 1
/// first waits only for rank 0, then for rank 2.
int local_then_remote(int, char**) {
  MPI_Init(nullptr, nullptr);
  int rank, v = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&v, 1, MPI_INT, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}

bool walk_every_rank(mpilite::World& w) {
  for (const auto& r : w.ranks())
    if (r->task.state != mpilite::TaskState::Done && !mpilite::waits_only_within_host(w, *r))
      return false;
  return true;
}

TEST(WaitsWithinHost, TheListedRanksAnswerAsAWalkOverEveryRankAtEveryIdleRound) {
  test::FakeTiming timing;
  mpilite::ExactMatching exact;
  std::vector<bool> listed, walked;
  const auto record = [&](mpilite::World& w) {
    walked.push_back(walk_every_rank(w));
    listed.push_back(mpilite::all_wait_within_host(w));
    return false;
  };
  const auto clocks = test::run_fake(2, timing, exact, local_then_remote, record, 3);
  // Two rounds decide the messages within the process; at the third, rank 1 waits for rank 2,
  // which never sends: the run ends deadlocked.
  EXPECT_EQ(clocks, (std::vector<mpilite::SimTime>{-1, -1}));
  EXPECT_EQ(listed, walked);
  ASSERT_GE(listed.size(), 3u);
  EXPECT_TRUE(listed[0]);
  EXPECT_TRUE(listed[1]);
  EXPECT_FALSE(listed.back());
}

} // namespace
