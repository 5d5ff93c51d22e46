// Communicators: split, dup, create, create_group, compare, free, names, and that point-to-point
// and collectives work inside them with the right ranks, on 1, 2, 3, 7, 16 and 33 ranks; and
// that making a communicator costs the simulated time of its agreement's messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "comm.hpp"
#include "sim_harness.hpp"
#include "split_board.hpp"

namespace {

using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000; // 1 GB/s

void expect_finished(const mpisim::RunSummary& summary) {
  EXPECT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(summary.exit_code, 0) << summary.message;
}

/// Counts MPI calls of one rank that did not return MPI_SUCCESS.
struct Calls {
  int failed = 0;
  void operator()(int code) { failed += code != MPI_SUCCESS; }
};

/// World ranks of the communicator `r` lands in when every rank q splits with color(q), key(q):
/// same color, ordered by (key, world rank).
std::vector<int> expected_members(int size, int r, const std::function<int(int)>& color,
                                  const std::function<int(int)>& key) {
  std::vector<std::pair<int, int>> order;
  for (int q = 0; q < size; ++q)
    if (color(q) == color(r)) order.emplace_back(key(q), q);
  std::sort(order.begin(), order.end());
  std::vector<int> world;
  for (const auto& kq : order)
    world.push_back(kq.second);
  return world;
}

/// What one rank saw inside its part of a split.
struct SplitLog {
  Calls calls;
  int rank = -1, size = -1;
  int sum = -1;         ///< Allreduce(SUM) of world ranks
  int from_first = -1;  ///< Bcast of the world rank of new rank 0
  int max_at_last = -1; ///< Reduce(MAX) of world ranks at the last new rank
  int ring_value = -1;  ///< world rank received from the previous new rank
  int ring_source = -1; ///< status.MPI_SOURCE of that receive
  int ring_tag = -1;    ///< status.MPI_TAG
  bool freed_to_null = false;
};

void run_split(int size, const std::function<int(int)>& color, const std::function<int(int)>& key) {
  std::vector<SplitLog> logs(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    SplitLog& log = logs[static_cast<std::size_t>(me)];
    MPI_Comm sub;
    log.calls(MPI_Comm_split(MPI_COMM_WORLD, color(me), key(me), &sub));
    log.calls(MPI_Comm_rank(sub, &log.rank));
    log.calls(MPI_Comm_size(sub, &log.size));
    log.calls(MPI_Allreduce(&me, &log.sum, 1, MPI_INT, MPI_SUM, sub));
    log.from_first = log.rank == 0 ? me : -1;
    log.calls(MPI_Bcast(&log.from_first, 1, MPI_INT, 0, sub));
    log.calls(MPI_Reduce(&me, &log.max_at_last, 1, MPI_INT, MPI_MAX, log.size - 1, sub));
    MPI_Status st;
    log.calls(MPI_Sendrecv(&me, 1, MPI_INT, (log.rank + 1) % log.size, 40 + log.rank,
                           &log.ring_value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, sub, &st));
    log.ring_source = st.MPI_SOURCE;
    log.ring_tag = st.MPI_TAG;
    log.calls(MPI_Barrier(sub));
    log.calls(MPI_Comm_free(&sub));
    log.freed_to_null = sub == MPI_COMM_NULL;
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  for (int r = 0; r < size; ++r) {
    const SplitLog& log = logs[static_cast<std::size_t>(r)];
    const std::vector<int> world = expected_members(size, r, color, key);
    const int n = static_cast<int>(world.size());
    const int rank = static_cast<int>(std::find(world.begin(), world.end(), r) - world.begin());
    const int prev = (rank - 1 + n) % n;
    SCOPED_TRACE("world rank " + std::to_string(r));
    EXPECT_EQ(log.calls.failed, 0);
    EXPECT_EQ(log.rank, rank);
    EXPECT_EQ(log.size, n);
    EXPECT_EQ(log.sum, std::accumulate(world.begin(), world.end(), 0));
    EXPECT_EQ(log.from_first, world.front());
    if (rank == n - 1) {
      EXPECT_EQ(log.max_at_last, *std::max_element(world.begin(), world.end()));
    }
    EXPECT_EQ(log.ring_value, world[static_cast<std::size_t>(prev)]);
    EXPECT_EQ(log.ring_source, prev);
    EXPECT_EQ(log.ring_tag, 40 + prev);
    EXPECT_TRUE(log.freed_to_null);
  }
}

class CommunicatorsTest : public testing::TestWithParam<int> {};

TEST_P(CommunicatorsTest, SplitByParityWithReversedKeys) {
  run_split(
      GetParam(), [](int q) { return q % 2; }, [](int q) { return -q; });
}

TEST_P(CommunicatorsTest, SplitByRankModThreeWithReversedKeys) {
  const int size = GetParam();
  run_split(
      size, [](int q) { return q % 3; }, [size](int q) { return size - q; });
}

TEST_P(CommunicatorsTest, SplitWithEqualKeysKeepsWorldOrder) {
  run_split(
      GetParam(), [](int q) { return q / 4; }, [](int) { return 7; });
}

// The halves of a split share one context id (their members are disjoint) and split again at
// the same time, each twice over: every split of one host process's members takes their
// (color, key) from one table per communicator object and call (SplitBoard), which must keep the
// halves and the successive calls apart.
TEST_P(CommunicatorsTest, HalvesSharingAContextSplitAgainTwiceAtOnce) {
  const int size = GetParam();
  struct Seen {
    int rank = -1, size = -1, sum = -1;
  };
  std::vector<std::array<Seen, 2>> seen(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    int h = 0;
    MPI_Comm_rank(half, &h);
    for (int round = 0; round < 2; ++round) {
      // First by thirds of the half with reversed keys, then by halves of it in order.
      const int color = round == 0 ? h % 3 : h % 2;
      const int key = round == 0 ? -h : h;
      MPI_Comm quarter;
      MPI_Comm_split(half, color, key, &quarter);
      Seen& s = seen[static_cast<std::size_t>(me)][static_cast<std::size_t>(round)];
      MPI_Comm_rank(quarter, &s.rank);
      MPI_Comm_size(quarter, &s.size);
      MPI_Allreduce(&me, &s.sum, 1, MPI_INT, MPI_SUM, quarter);
      MPI_Comm_free(&quarter);
    }
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  for (int r = 0; r < size; ++r)
    for (int round = 0; round < 2; ++round) {
      // The world ranks of r's quarter: same parity, then same color within the half.
      const int h = r / 2;
      auto color = [&](int q) { return round == 0 ? (q / 2) % 3 : (q / 2) % 2; };
      std::vector<std::pair<int, int>> order; // (key, world rank)
      for (int q = r % 2; q < size; q += 2)
        if (color(q) == color(r)) order.emplace_back(round == 0 ? -(q / 2) : q / 2, q);
      std::sort(order.begin(), order.end());
      int sum = 0, rank = -1;
      for (std::size_t i = 0; i < order.size(); ++i) {
        sum += order[i].second;
        if (order[i].second == r) rank = static_cast<int>(i);
      }
      const Seen& s = seen[static_cast<std::size_t>(r)][static_cast<std::size_t>(round)];
      SCOPED_TRACE("world rank " + std::to_string(r) + " (half rank " + std::to_string(h) +
                   "), split " + std::to_string(round));
      EXPECT_EQ(s.rank, rank);
      EXPECT_EQ(s.size, static_cast<int>(order.size()));
      EXPECT_EQ(s.sum, sum);
    }
}

TEST_P(CommunicatorsTest, UndefinedColorGetsCommNullOthersSplitNormally) {
  const int size = GetParam();
  std::vector<MPI_Comm> got(static_cast<std::size_t>(size), 0);
  std::vector<int> sizes(static_cast<std::size_t>(size), -1);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, me % 3 == 1 ? MPI_UNDEFINED : 0, me, &sub);
    got[static_cast<std::size_t>(me)] = sub;
    if (sub != MPI_COMM_NULL) {
      MPI_Comm_size(sub, &sizes[static_cast<std::size_t>(me)]);
      MPI_Comm_free(&sub);
    }
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  int members = 0;
  for (int r = 0; r < size; ++r)
    members += r % 3 != 1;
  for (int r = 0; r < size; ++r) {
    if (r % 3 == 1) {
      EXPECT_EQ(got[static_cast<std::size_t>(r)], MPI_COMM_NULL) << "rank " << r;
    } else {
      EXPECT_NE(got[static_cast<std::size_t>(r)], MPI_COMM_NULL) << "rank " << r;
      EXPECT_EQ(sizes[static_cast<std::size_t>(r)], members) << "rank " << r;
    }
  }
}

TEST_P(CommunicatorsTest, MembersOfOneCommunicatorShareItsHandle) {
  const int size = GetParam();
  std::vector<MPI_Comm> dups(static_cast<std::size_t>(size)), halves(dups);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm_dup(MPI_COMM_WORLD, &dups[static_cast<std::size_t>(me)]);
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, 0, &halves[static_cast<std::size_t>(me)]);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  for (int r = 0; r < size; ++r) {
    EXPECT_EQ(dups[static_cast<std::size_t>(r)], dups[0]) << "rank " << r;
    EXPECT_EQ(halves[static_cast<std::size_t>(r)], halves[static_cast<std::size_t>(r % 2)]);
    EXPECT_NE(halves[static_cast<std::size_t>(r)], dups[0]);
  }
  if (size > 1) {
    EXPECT_NE(halves[0], halves[1]);
  }
}

TEST_P(CommunicatorsTest, DupKeepsItsTrafficApartFromTheParent) {
  const int size = GetParam();
  const int sender = 0, receiver = size - 1;
  int on_parent = -1, on_dup = -1, parent_source = -2, dup_source = -2;
  Calls calls;
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm dup;
    calls(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    const int a = 111, b = 222;
    if (me == sender) { // first on the dup, then on the parent, same tag
      calls(MPI_Isend(&a, 1, MPI_INT, receiver, 5, dup, &reqs[0]));
      calls(MPI_Isend(&b, 1, MPI_INT, receiver, 5, MPI_COMM_WORLD, &reqs[1]));
    }
    if (me == receiver) { // the parent's receive must not take the dup's earlier message
      MPI_Status st;
      calls(MPI_Recv(&on_parent, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
      parent_source = st.MPI_SOURCE;
      calls(MPI_Recv(&on_dup, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
      dup_source = st.MPI_SOURCE;
    }
    calls(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    calls(MPI_Comm_free(&dup));
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  EXPECT_EQ(calls.failed, 0);
  EXPECT_EQ(on_parent, 222);
  EXPECT_EQ(on_dup, 111);
  EXPECT_EQ(parent_source, sender);
  EXPECT_EQ(dup_source, sender);
}

TEST_P(CommunicatorsTest, CompareGivesIdentCongruentSimilarUnequal) {
  const int size = GetParam();
  struct Results {
    int world_world, world_dup, world_reversed, world_half, self_dupself, self_world, dup_dup;
  };
  std::vector<Results> res(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    Results& x = res[static_cast<std::size_t>(me)];
    MPI_Comm dup, reversed, half, dupself;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &reversed);
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Comm_dup(MPI_COMM_SELF, &dupself);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &x.world_world);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &x.world_dup);
    MPI_Comm_compare(MPI_COMM_WORLD, reversed, &x.world_reversed);
    MPI_Comm_compare(MPI_COMM_WORLD, half, &x.world_half);
    MPI_Comm_compare(MPI_COMM_SELF, dupself, &x.self_dupself);
    MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &x.self_world);
    MPI_Comm_compare(dup, dup, &x.dup_dup);
    for (MPI_Comm* c : {&dup, &reversed, &half, &dupself})
      MPI_Comm_free(c);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  for (int r = 0; r < size; ++r) {
    const Results& x = res[static_cast<std::size_t>(r)];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(x.world_world, MPI_IDENT);
    EXPECT_EQ(x.world_dup, MPI_CONGRUENT);
    // Reversed order: the same members, so similar; one rank is the same list.
    EXPECT_EQ(x.world_reversed, size == 1 ? MPI_CONGRUENT : MPI_SIMILAR);
    EXPECT_EQ(x.world_half, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);
    EXPECT_EQ(x.self_dupself, MPI_CONGRUENT);
    EXPECT_EQ(x.self_world, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);
    EXPECT_EQ(x.dup_dup, MPI_IDENT);
  }
}

TEST_P(CommunicatorsTest, CreateFromGroupAndCreateGroupOnlyAmongItsMembers) {
  const int size = GetParam();
  struct Log {
    Calls calls;
    MPI_Comm even = 0, odd = 0;
    int even_rank = -1, even_sum = -1, odd_rank = -1, odd_sum = -1;
  };
  std::vector<Log> logs(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    Log& log = logs[static_cast<std::size_t>(me)];
    MPI_Group world, evens, odds;
    log.calls(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int range[1][3] = {{0, size - 1, 2}};
    log.calls(MPI_Group_range_incl(world, 1, range, &evens));
    log.calls(MPI_Group_difference(world, evens, &odds));
    // Collective over all of WORLD.
    log.calls(MPI_Comm_create(MPI_COMM_WORLD, evens, &log.even));
    if (log.even != MPI_COMM_NULL) {
      log.calls(MPI_Comm_rank(log.even, &log.even_rank));
      log.calls(MPI_Allreduce(&me, &log.even_sum, 1, MPI_INT, MPI_SUM, log.even));
      log.calls(MPI_Comm_free(&log.even));
    }
    // Collective over the odd ranks only: the even ones do not take part.
    if (me % 2 == 1) {
      log.calls(MPI_Comm_create_group(MPI_COMM_WORLD, odds, 77, &log.odd));
      log.calls(MPI_Comm_rank(log.odd, &log.odd_rank));
      log.calls(MPI_Allreduce(&me, &log.odd_sum, 1, MPI_INT, MPI_SUM, log.odd));
      log.calls(MPI_Comm_free(&log.odd));
    }
    for (MPI_Group* g : {&world, &evens, &odds})
      log.calls(MPI_Group_free(g));
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  int even_sum = 0, odd_sum = 0;
  for (int r = 0; r < size; ++r)
    (r % 2 ? odd_sum : even_sum) += r;
  for (int r = 0; r < size; ++r) {
    const Log& log = logs[static_cast<std::size_t>(r)];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(log.calls.failed, 0);
    if (r % 2 == 0) {
      EXPECT_EQ(log.even_rank, r / 2);
      EXPECT_EQ(log.even_sum, even_sum);
      EXPECT_EQ(log.odd, 0) << "an even rank took part in the odd ranks' creation";
    } else {
      EXPECT_EQ(log.even, MPI_COMM_NULL);
      EXPECT_EQ(log.odd_rank, r / 2);
      EXPECT_EQ(log.odd_sum, odd_sum);
    }
  }
}

TEST_P(CommunicatorsTest, FreeByOneMemberLeavesItWorkingForTheOthers) {
  const int size = GetParam();
  std::vector<int> got(static_cast<std::size_t>(size), -1);
  Calls calls;
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm dup;
    calls(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    if (me == 0) calls(MPI_Comm_free(&dup)); // rank 0 is gone from it at once
    if (me > 0 && size > 2) {                // a ring among ranks 1..size-1 on the dup
      const int next = me % (size - 1) + 1, prev = (me - 2 + size - 1) % (size - 1) + 1;
      calls(MPI_Sendrecv(&me, 1, MPI_INT, next, 0, &got[static_cast<std::size_t>(me)], 1, MPI_INT,
                         prev, 0, dup, MPI_STATUS_IGNORE));
    }
    if (me > 0) calls(MPI_Comm_free(&dup));
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  EXPECT_EQ(calls.failed, 0);
  for (int r = 1; size > 2 && r < size; ++r)
    EXPECT_EQ(got[static_cast<std::size_t>(r)], r == 1 ? size - 1 : r - 1) << "rank " << r;
}

TEST_P(CommunicatorsTest, SplitTypeSharedGivesEachRankItsOwnNode) {
  const int size = GetParam();
  std::vector<int> sizes(static_cast<std::size_t>(size), -1), ranks(sizes);
  std::vector<MPI_Comm> undefined(static_cast<std::size_t>(size), 0);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &sizes[static_cast<std::size_t>(me)]);
    MPI_Comm_rank(node, &ranks[static_cast<std::size_t>(me)]);
    MPI_Comm_free(&node);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL,
                        &undefined[static_cast<std::size_t>(me)]);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  for (int r = 0; r < size; ++r) {
    EXPECT_EQ(sizes[static_cast<std::size_t>(r)], 1) << "rank " << r;
    EXPECT_EQ(ranks[static_cast<std::size_t>(r)], 0) << "rank " << r;
    EXPECT_EQ(undefined[static_cast<std::size_t>(r)], MPI_COMM_NULL) << "rank " << r;
  }
}

/// Final clocks of `body` run on `size` ranks.
std::vector<SimTime> clocks_of(int size, const std::function<void(int)>& body) {
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    body(test::world_rank());
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  std::vector<SimTime> clocks;
  for (const mpisim::RankSummary& r : summary.ranks)
    clocks.push_back(r.clock);
  return clocks;
}

TEST_P(CommunicatorsTest, DupCostsExactlyOneAllreduceOfTheContextMasks) {
  const int size = GetParam();
  const std::vector<SimTime> dup = clocks_of(size, [](int) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
  });
  // The agreement: MPI_BAND over every member's mask of free context ids, 512 bits.
  const std::vector<SimTime> allreduce = clocks_of(size, [](int) {
    unsigned long long mask[8] = {}, out[8];
    MPI_Allreduce(mask, out, 8, MPI_UINT64_T, MPI_BAND, MPI_COMM_WORLD);
  });
  EXPECT_EQ(dup, allreduce);
  for (std::size_t r = 0; size > 1 && r < dup.size(); ++r)
    EXPECT_GT(dup[r], 0) << "rank " << r << ": making a communicator cost no time";
}

TEST_P(CommunicatorsTest, SplitCostsBrucksAllgatherThenTheAgreement) {
  const int size = GetParam();
  const std::vector<SimTime> dup = clocks_of(size, [](int) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
  });
  const std::vector<SimTime> split = clocks_of(size, [](int me) {
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &c);
  });
  // Bruck's allgather of (color, key), 8 bytes per rank: in round k every rank sends
  // min(2^k, p - 2^k) entries to one rank and receives as many from another; all start together,
  // so every round costs o_s + L + bytes + o_r, and the agreement then costs what a dup costs.
  SimTime gather = 0;
  for (int k = 1; k < size; k <<= 1)
    gather += kSendOverhead + kLatency + 8 * std::min(k, size - k) * kPsPerByte + kRecvOverhead;
  ASSERT_EQ(split.size(), dup.size());
  for (std::size_t r = 0; r < split.size(); ++r)
    EXPECT_EQ(split[r], gather + dup[r]) << "rank " << r;
}

TEST(Communicators, TwoRankDupAndSplitTimesFromTheModel) {
  // One exchange of the 64-byte masks; the split exchanges 8-byte (color, key) entries first.
  const SimTime mask_exchange = kSendOverhead + kLatency + 64 * kPsPerByte + kRecvOverhead;
  const SimTime entry_exchange = kSendOverhead + kLatency + 8 * kPsPerByte + kRecvOverhead;
  const std::vector<SimTime> dup = clocks_of(2, [](int) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
  });
  const std::vector<SimTime> split = clocks_of(2, [](int me) {
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &c);
  });
  EXPECT_EQ(dup, (std::vector<SimTime>{mask_exchange, mask_exchange}));
  EXPECT_EQ(split,
            (std::vector<SimTime>{entry_exchange + mask_exchange, entry_exchange + mask_exchange}));
}

TEST_P(CommunicatorsTest, SameClocksOnRerunAndWithoutDeterministicMode) {
  const int size = GetParam();
  auto run = [size](bool det) {
    mpisim::Config config = test::config(size);
    config.det = det;
    auto summary = test::simulate(config, [](int, char**) {
      MPI_Init(nullptr, nullptr);
      const int me = test::world_rank();
      MPI_Comm a, b;
      MPI_Comm_split(MPI_COMM_WORLD, me % 3, -me, &a);
      MPI_Comm_dup(a, &b);
      int v = me, sum = 0;
      MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, b);
      MPI_Comm_free(&a);
      MPI_Comm_free(&b);
      MPI_Finalize();
      return 0;
    });
    expect_finished(summary);
    std::vector<SimTime> clocks;
    for (const auto& r : summary.ranks)
      clocks.push_back(r.clock);
    return clocks;
  };
  const std::vector<SimTime> first = run(true);
  EXPECT_EQ(first, run(true));
  EXPECT_EQ(first, run(false));
}

TEST_P(CommunicatorsTest, NamesAreLocalToEachRank) {
  const int size = GetParam();
  std::vector<std::string> world_before(static_cast<std::size_t>(size)), self_name(world_before),
      dup_before(world_before), dup_after(world_before);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const std::size_t i = static_cast<std::size_t>(me);
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    world_before[i] = std::string(name, static_cast<std::size_t>(len));
    MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
    self_name[i] = name;
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_name(dup, name, &len);
    dup_before[i] = std::string(name, static_cast<std::size_t>(len));
    if (me == 0) MPI_Comm_set_name(dup, "solver");
    MPI_Barrier(MPI_COMM_WORLD); // rank 0 has named it before anyone looks
    MPI_Comm_get_name(dup, name, &len);
    dup_after[i] = name;
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  for (int r = 0; r < size; ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    EXPECT_EQ(world_before[i], "MPI_COMM_WORLD");
    EXPECT_EQ(self_name[i], "MPI_COMM_SELF");
    EXPECT_EQ(dup_before[i], "");
    EXPECT_EQ(dup_after[i], r == 0 ? "solver" : "") << "rank " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(Communicators, CommunicatorsTest, testing::Values(1, 2, 3, 7, 16, 33),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "ranks";
                         });

TEST(SplitBoard, RoundsFillPerCommunicatorAndInOrder) {
  mpilite::SplitBoard board;
  mpilite::Comm a, b; // two objects, as two disjoint communicators sharing a context id are
  const auto a1 = board.deposit(a, 2, 2, 1, {7, 70});
  const auto b1 = board.deposit(b, 3, 3, 0, {5, 50});
  const auto a1_too = board.deposit(a, 2, 2, 0, {6, 60}); // fills a's first round
  EXPECT_EQ(a1, a1_too);
  EXPECT_NE(static_cast<const void*>(a1.get()), static_cast<const void*>(b1.get()));
  EXPECT_EQ(a1->deposited, 2u);
  EXPECT_EQ(a1->entries[0].color, 6);
  EXPECT_EQ(a1->entries[1].key, 70);
  // The next split of `a` starts a new round, which leaves the first one's entries alone.
  const auto a2 = board.deposit(a, 2, 2, 0, {8, 80});
  EXPECT_NE(a1, a2);
  EXPECT_EQ(a2->deposited, 1u);
  EXPECT_EQ(a1->entries[0].color, 6);
  EXPECT_EQ(a2->entries[0].color, 8);
  EXPECT_EQ(b1->deposited, 1u);
  EXPECT_EQ(board.deposit(b, 3, 3, 2, {5, 52}), b1);
}

// On several host processes a round holds this host process's members: it fills with the last
// of them, and each entry, deposited or received, is at both places of the doubled table.
TEST(SplitBoard, ARoundOfSomeMembersFillsWithTheLastLocalOneAndKnowsEachEntryTwice) {
  mpilite::SplitBoard board;
  mpilite::Comm c;
  const auto r1 = board.deposit(c, 4, 2, 3, {1, 30});
  EXPECT_EQ(board.deposit(c, 4, 2, 1, {2, 10}), r1);
  EXPECT_NE(board.deposit(c, 4, 2, 3, {9, 90}), r1); // the next split's round
  ASSERT_EQ(r1->entries.size(), 8u);
  EXPECT_EQ(r1->entries[3].key, 30);
  EXPECT_EQ(r1->entries[7].key, 30);
  EXPECT_EQ(r1->entries[5].color, 2);
  r1->know(6, {5, 20}); // member 2's entry, received into its place past the end
  EXPECT_EQ(r1->entries[2].color, 5);
  EXPECT_EQ(r1->entries[6].key, 20);
  EXPECT_THROW(board.deposit(c, 4, 0, 0, {0, 0}), std::logic_error);
}

TEST(Communicators, InterInfoAndErrorClassesOfBadArguments) {
  std::vector<int> codes;
  int inter = -1, nkeys = -1;
  auto summary = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm half; // inherits MPI_ERRORS_RETURN from WORLD
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    if (me == 0) {
      MPI_Comm_test_inter(half, &inter);
      MPI_Info info;
      MPI_Comm_get_info(half, &info);
      MPI_Info_get_nkeys(info, &nkeys);
      MPI_Comm_set_info(half, info);
      MPI_Info_free(&info);
      MPI_Comm world = MPI_COMM_WORLD;
      codes.push_back(MPI_Comm_free(&world));
      MPI_Comm bogus = static_cast<MPI_Comm>(0x84000fff);
      codes.push_back(MPI_Comm_free(&bogus));
      MPI_Comm out;
      codes.push_back(MPI_Comm_split(half, -5, 0, &out));
      int v = 0;
      codes.push_back(MPI_Send(&v, 1, MPI_INT, 2, 0, half)); // half {0, 2} has ranks 0 and 1
      MPI_Group world_group;
      MPI_Comm_group(MPI_COMM_WORLD, &world_group);
      codes.push_back(MPI_Comm_create(half, world_group, &out)); // rank 1 is not in half
      codes.push_back(MPI_Comm_create(half, static_cast<MPI_Group>(0x88000fff), &out));
      codes.push_back(MPI_Comm_split_type(half, 12345, 0, MPI_INFO_NULL, &out));
      codes.push_back(MPI_Comm_set_info(half, static_cast<MPI_Info>(0x9c000fff)));
      MPI_Group_free(&world_group);
    }
    MPI_Comm freed = half;
    MPI_Comm_free(&half);
    if (me == 0) codes.push_back(MPI_Barrier(freed)); // a handle this rank freed
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  EXPECT_EQ(inter, 0);
  EXPECT_EQ(nkeys, 0);
  EXPECT_EQ(codes,
            (std::vector<int>{MPI_ERR_COMM, MPI_ERR_COMM, MPI_ERR_ARG, MPI_ERR_RANK, MPI_ERR_GROUP,
                              MPI_ERR_GROUP, MPI_ERR_ARG, MPI_ERR_INFO, MPI_ERR_COMM}));
}

TEST(Communicators, ErrorOnASplitCommunicatorIsFatalByDefaultAndNamesIt) {
  auto summary = test::simulate(test::config(4), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Comm_set_name(half, "half");
    int v = 0;
    if (me == 3) MPI_Send(&v, 1, MPI_INT, 2, 0, half);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(summary.reason, mpilite::RunEnd::FatalError);
  EXPECT_NE(summary.message.find("rank 3: MPI_Send: MPI_ERR_RANK: invalid destination rank 2 "
                                 "(half has 2 ranks)"),
            std::string::npos)
      << summary.message;
}

TEST(Communicators, ContextIdsRunOutWithAnErrorAndComeBackWhenFreed) {
  std::vector<int> made(3, 0), last_error(3, 0), after_free(3, -1);
  auto summary = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const std::size_t me = static_cast<std::size_t>(test::world_rank());
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    std::vector<MPI_Comm> comms;
    for (;;) {
      MPI_Comm c;
      const int e = MPI_Comm_dup(MPI_COMM_WORLD, &c);
      if (e != MPI_SUCCESS) {
        last_error[me] = e;
        break;
      }
      comms.push_back(c);
      if (comms.size() > 100000) break; // never: contexts are finite
    }
    made[me] = static_cast<int>(comms.size());
    for (MPI_Comm& c : comms)
      MPI_Comm_free(&c);
    MPI_Comm again;
    after_free[me] = MPI_Comm_dup(MPI_COMM_WORLD, &again);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  for (int r = 0; r < 3; ++r) {
    EXPECT_GE(made[static_cast<std::size_t>(r)], 500) << "a few hundred context ids per rank";
    EXPECT_EQ(made[static_cast<std::size_t>(r)], made[0]);
    EXPECT_EQ(last_error[static_cast<std::size_t>(r)], MPI_ERR_OTHER);
    EXPECT_EQ(after_free[static_cast<std::size_t>(r)], MPI_SUCCESS);
  }
}

TEST(Communicators, ThousandsOfDupFreeCyclesReuseContextIds) {
  Calls calls;
  int sum = -1;
  auto summary = test::simulate(test::config(5), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    for (int i = 0; i < 3000; ++i) {
      MPI_Comm c;
      calls(MPI_Comm_dup(MPI_COMM_WORLD, &c));
      calls(MPI_Comm_free(&c));
    }
    MPI_Comm c;
    int mine = -1; // each rank's own receive buffer
    calls(MPI_Comm_split(MPI_COMM_WORLD, 0, me, &c));
    calls(MPI_Allreduce(&me, &mine, 1, MPI_INT, MPI_SUM, c));
    calls(MPI_Comm_free(&c));
    if (me == 4) sum = mine;
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary);
  EXPECT_EQ(calls.failed, 0);
  EXPECT_EQ(sum, 0 + 1 + 2 + 3 + 4);
}

} // namespace
