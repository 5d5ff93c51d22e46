// Point-to-point and matching against the fake kernel (fake_kernel.hpp): the times they produce
// are the fake timing's plans put together, and nothing else adds time.
#include <gtest/gtest.h>
#include <mpisim.h>

#include <algorithm>

#include "datatype.hpp"
#include "fake_kernel.hpp"
#include "p2p.hpp"

namespace {

using mpilite::SimTime;

using mpilite::LegKind;
using test::FakeTiming;

constexpr SimTime O = FakeTiming::kOverhead, L = FakeTiming::kLatency, B = FakeTiming::kPerByte,
                  R = FakeTiming::kReceive;

int eager_pair(int, char**) {
  MPI_Init(nullptr, nullptr);
  int rank, v = 7;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (v != 7) return 1;
  }
  MPI_Finalize();
  return 0;
}

TEST(FakeKernel, EagerMessageIsOneLegPlusTheReceiveOverhead) {
  FakeTiming timing;
  mpilite::ExactMatching exact;
  const auto clocks = test::run_fake(2, timing, exact, eager_pair);
  EXPECT_EQ(clocks[0], O);
  EXPECT_EQ(clocks[1], O + L + 4 * B + R);
  EXPECT_EQ(timing.legs, std::vector<LegKind>{LegKind::Eager});
}

int rendezvous_pair(int, char**) {
  MPI_Init(nullptr, nullptr);
  int rank;
  std::vector<char> big(4096, 'x');
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Send(big.data(), 4096, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
  if (rank == 1) {
    std::vector<char> in(4096);
    MPI_Recv(in.data(), 4096, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (in != big) return 1;
  }
  MPI_Finalize();
  return 0;
}

TEST(FakeKernel, RendezvousTakesItsThreeLegsAndTheSenderEndsWhenTheDataHasLeft) {
  FakeTiming timing;
  mpilite::ExactMatching exact;
  const auto clocks = test::run_fake(2, timing, exact, rendezvous_pair);
  const SimTime rts = O + L, cts = rts + L, data = cts + L + 4096 * B;
  EXPECT_EQ(clocks[0], data - L); // the sender's part of the data leg is over
  EXPECT_EQ(clocks[1], data + R);
  EXPECT_EQ(timing.legs,
            (std::vector<LegKind>{LegKind::RequestToSend, LegKind::ClearToSend, LegKind::Data}));
}

int wildcard_pair(int, char**) {
  // Rank 2 sends later than rank 1 but is the smaller timestamp's source only if it sends first:
  // rank 1 computes 5 us before sending, so rank 2's message is the earlier one.
  MPI_Init(nullptr, nullptr);
  int rank, v;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) MPISIM_Compute(5e-6);
  if (rank > 0) MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Status s;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &s);
    if (v != 2 || s.MPI_SOURCE != 2) return 1;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &s);
    if (v != 1) return 1;
  }
  MPI_Finalize();
  return 0;
}

TEST(FakeKernel, WildcardReceiveTakesTheEarliestArrivalWhateverTheOrderOfSends) {
  FakeTiming timing;
  mpilite::ExactMatching exact;
  const auto clocks = test::run_fake(3, timing, exact, wildcard_pair);
  ASSERT_EQ(clocks.size(), 3u);
  EXPECT_EQ(clocks[0], 5'000'000 + O + L + 4 * B + R); // rank 1's message, after rank 2's
  EXPECT_EQ(clocks[2], O);
}

/// Rank 0 sends `size_only_bytes` bytes of mpilite::size_only_bytes() to rank 1 through the
/// internal point-to-point calls: the receive buffer must keep its contents.
std::size_t size_only_bytes = 0;

int size_only_pair(int, char**) {
  MPI_Init(nullptr, nullptr);
  mpilite::World& w = mpilite::World::get();
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mpilite::Rank& r = *w.local(rank);
  const mpilite::Datatype& type = mpilite::size_only_bytes();
  std::vector<char> buf(size_only_bytes, 'z');
  mpilite::Request* q = rank == 0 ? mpilite::start_send(w, r, mpilite::SendMode::Standard, nullptr,
                                                        size_only_bytes, type, 1, 0, 0)
                                  : mpilite::start_receive(w, r, buf.data(), size_only_bytes, type,
                                                           0, 0, 0, *w.comm(MPI_COMM_WORLD));
  mpilite::wait_all(w, r, &q, 1);
  const bool untouched = std::all_of(buf.begin(), buf.end(), [](char c) { return c == 'z'; });
  const std::size_t got = q->message_bytes;
  w.free_request(q);
  MPI_Finalize();
  return untouched && (rank == 0 || got == size_only_bytes) ? 0 : 1;
}

TEST(FakeKernel, ASizeOnlyMessageTakesTheTimeOfItsSizeAndCarriesNothing) {
  for (const std::size_t bytes : {std::size_t{100}, std::size_t{4096}}) {
    size_only_bytes = bytes;
    FakeTiming timing;
    mpilite::ExactMatching exact;
    const auto clocks = test::run_fake(2, timing, exact, size_only_pair);
    const SimTime n = static_cast<SimTime>(bytes);
    if (bytes < 1024) { // eager, as eager_pair
      EXPECT_EQ(clocks[0], O);
      EXPECT_EQ(clocks[1], O + L + n * B + R);
    } else { // rendezvous, as rendezvous_pair
      const SimTime data = O + 3 * L + n * B;
      EXPECT_EQ(clocks[0], data - L);
      EXPECT_EQ(clocks[1], data + R);
    }
  }
}

/// Plans every Eager leg `later` and decides it 3 us after its lone arrival, as a network that
/// shares links would.
class LaterTiming : public FakeTiming {
public:
  mpilite::LegPlan plan(const mpilite::Leg& leg) override {
    mpilite::LegPlan p = FakeTiming::plan(leg);
    if (leg.kind == LegKind::Eager && leg.from != leg.to) {
      p.later = true;
      waiting.push_back({leg.message, p.arrives + 3'000'000});
    }
    return p;
  }
  bool settle(mpilite::World& w) {
    if (waiting.empty()) return false;
    mpilite::WorldArrivals arrivals(w);
    const auto due = waiting;
    waiting.clear();
    for (const mpilite::LaterArrival& a : due)
      arrivals.arrived(*a.message, a.at);
    return true;
  }
  std::vector<mpilite::LaterArrival> waiting;
};

TEST(FakeKernel, AnArrivalDecidedLaterIsTheOneTheReceiveGets) {
  LaterTiming timing;
  mpilite::ExactMatching exact;
  const auto clocks = test::run_fake(2, timing, exact, eager_pair,
                                     [&](mpilite::World& w) { return timing.settle(w); });
  EXPECT_EQ(clocks[0], O);
  EXPECT_EQ(clocks[1], O + L + 4 * B + 3'000'000 + R);
}

} // namespace

namespace {

/// Sets `r`'s time of an undecided receive (or of a test, with `test`) and tells its world.
void set_time(mpilite::World& w, mpilite::Rank& r, SimTime t, bool test = false) {
  (test ? r.decide_time : r.undecided_key) = t;
  w.note_undecided(r);
}

/// A world of three ranks on the fake kernel, not run.
struct ThreeRanks {
  FakeTiming timing;
  mpilite::ExactMatching exact;
  test::NoRemoteHosts delivery;
  test::NoHooks hooks;
  test::StaticLookahead bounds;
  mpilite::World w{{timing, delivery, bounds, hooks, exact}, 3, {0, 1, 2}, 64 * 1024};
};

} // namespace

TEST(FakeKernel, EarliestDecisionFollowsEveryChangeOfTheRanksTimes) {
  ThreeRanks three;
  mpilite::World& w = three.w;
  mpilite::Rank &a = *w.ranks()[0], &b = *w.ranks()[1], &c = *w.ranks()[2];
  constexpr SimTime kNone = mpilite::kTimeInfinity;
  EXPECT_EQ(w.earliest_undecided(), kNone);
  set_time(w, a, 50);
  set_time(w, b, 30);
  set_time(w, c, 40, true);
  EXPECT_EQ(w.earliest_undecided(), 30);
  set_time(w, b, 60); // its entry at 30 is stale now
  EXPECT_EQ(w.earliest_undecided(), 40);
  set_time(w, c, kNone, true);
  EXPECT_EQ(w.earliest_undecided(), 50);
  set_time(w, b, 30); // back to a time whose entry was dropped
  EXPECT_EQ(w.earliest_undecided(), 30);
  // Enough changes to rebuild the heap from the ranks more than once.
  for (SimTime t = 1000; t > 100; --t)
    set_time(w, a, t);
  set_time(w, b, kNone);
  EXPECT_EQ(w.earliest_undecided(), 101);
  set_time(w, a, kNone);
  EXPECT_EQ(w.earliest_undecided(), kNone);
}

TEST(FakeKernel, EachRanksStateLivesAtTheTopOfItsStackWhenAsked) {
  FakeTiming timing;
  mpilite::ExactMatching exact;
  test::NoRemoteHosts delivery;
  test::NoHooks hooks;
  test::StaticLookahead bounds;
  mpilite::World w({timing, delivery, bounds, hooks, exact}, 3, {0, 1, 2}, 64 * 1024, false, true);
  const mpilite::StackPool& stacks = w.scheduler().stacks();
  for (std::size_t i = 0; i < 3; ++i) {
    const mpilite::Rank* r = w.ranks()[i].get();
    EXPECT_EQ(static_cast<const void*>(r), stacks.reserved(i));
    const mpilite::Stack s = stacks.stack(i);
    EXPECT_EQ(reinterpret_cast<const std::byte*>(r), s.bottom + s.size);
    EXPECT_GE(s.size, 64u * 1024);
    EXPECT_EQ(r->id, static_cast<int>(i));
  }
}

TEST(FakeKernel, EachRanksStateIsOnTheHeapByDefault) {
  ThreeRanks three;
  const mpilite::StackPool& stacks = three.w.scheduler().stacks();
  for (std::size_t i = 0; i < 3; ++i) {
    const mpilite::Stack s = stacks.stack(i);
    const auto* r = reinterpret_cast<const std::byte*>(three.w.ranks()[i].get());
    EXPECT_TRUE(r < s.bottom || r >= s.bottom + s.size + 4096) << "rank " << i;
    EXPECT_EQ(s.size, 64u * 1024);
  }
}
