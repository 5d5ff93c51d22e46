// The neighbourhood collectives cost exactly their messages (docs/model.md, Collectives): a batch
// of sends to the destinations, one after another, then receives from the sources.
#include <vector>

#include "collective_test_support.hpp"

namespace {

using colltest::Ints;
using colltest::Results;
using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000; // test::round_machine(): 1 GB/s

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

/// Each rank's clock across one neighbourhood collective `call` on a ring of `p` ranks (periodic
/// or not), and at its start.
template <class Call>
void time_on_ring(int p, int periodic, Call call, std::vector<SimTime>& start,
                  std::vector<SimTime>& took) {
  start.assign(at(p), -1);
  took.assign(at(p), -1);
  Results res(p);
  colltest::run(p, [&](int r) {
    MPI_Comm ring;
    res.call(r, MPI_Cart_create(MPI_COMM_WORLD, 1, &p, &periodic, 0, &ring));
    res.call(r, MPI_Barrier(ring));
    start[at(r)] = MPISIM_Clock_ps();
    res.call(r, call(r, ring));
    took[at(r)] = MPISIM_Clock_ps() - start[at(r)];
    res.call(r, MPI_Comm_free(&ring));
  });
  res.expect_calls_succeeded();
}

TEST(NeighborCollectives, AlltoallOnARingCostsItsTwoSendsAndTwoReceives) {
  const SimTime o_s = kSendOverhead, o_r = kRecvOverhead;
  const SimTime w = 400 * kPsPerByte, T = kLatency + w; // 100 ints
  auto alltoall = [](int, MPI_Comm ring) {
    Ints out(200, 1), in(200);
    return MPI_Neighbor_alltoall(out.data(), 100, MPI_INT, in.data(), 100, MPI_INT, ring);
  };
  std::vector<SimTime> start, took;
  // Periodic: every rank posts a send to its left (at 0) then its right (at o_s) neighbour; its
  // NIC sends the first block's bytes from o_s to o_s + w and the second's from o_s + w. The
  // block from the right neighbour arrives at o_s + T, the one from the left w later at the
  // receiving NIC (o_s + T + w, as the NIC delivers one after another), each then costs o_r.
  // (4 ranks: the barrier before leaves them all at one time.)
  time_on_ring(4, 1, alltoall, start, took);
  EXPECT_EQ(start, std::vector<SimTime>(4, start[0]));
  const SimTime both = std::max(o_s + T + o_r, o_s + T + w) + o_r;
  EXPECT_EQ(took, std::vector<SimTime>(4, both));
  // Not periodic: the ends have one neighbour (MPI_PROC_NULL costs nothing); rank 0 sends to the
  // right only, at 0, and receives what rank 1 sent first; rank 3 sends to the left at 0 and
  // receives what rank 2 sent second (its bytes left rank 2's NIC at o_s + 2 w); the middle ones
  // receive two blocks as on the ring.
  time_on_ring(4, 0, alltoall, start, took);
  EXPECT_EQ(start, std::vector<SimTime>(4, start[0]));
  EXPECT_EQ(took, (std::vector<SimTime>{o_s + T + o_r, both, both, o_s + T + w + o_r}));
}

TEST(NeighborCollectives, NonblockingCostsWhatBlockingCosts) {
  auto blocking = [](int, MPI_Comm ring) {
    Ints out(2 * 300, 2), in(2 * 300);
    return MPI_Neighbor_alltoall(out.data(), 300, MPI_INT, in.data(), 300, MPI_INT, ring);
  };
  auto nonblocking = [](int, MPI_Comm ring) {
    Ints out(2 * 300, 2), in(2 * 300);
    MPI_Request q;
    if (int e = MPI_Ineighbor_alltoall(out.data(), 300, MPI_INT, in.data(), 300, MPI_INT, ring, &q))
      return e;
    return MPI_Wait(&q, MPI_STATUS_IGNORE);
  };
  std::vector<SimTime> start, b, nb;
  time_on_ring(6, 1, blocking, start, b);
  time_on_ring(6, 1, nonblocking, start, nb);
  EXPECT_EQ(b, nb);
}

} // namespace
