// Groups: every operation against rank lists computed by hand here, on 1, 2, 3, 7, 16 and 33
// ranks, and the error classes of bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

/// World ranks of the members of `g`, in group order (through MPI_Group_translate_ranks).
std::vector<int> members(MPI_Group g, MPI_Group world) {
  int n = 0;
  MPI_Group_size(g, &n);
  std::vector<int> ranks(static_cast<std::size_t>(n)), out(ranks.size());
  for (int i = 0; i < n; ++i)
    ranks[static_cast<std::size_t>(i)] = i;
  MPI_Group_translate_ranks(g, n, ranks.data(), world, out.data());
  return out;
}

std::vector<int> iota(int from, int to_exclusive, int step = 1) {
  std::vector<int> v;
  for (int i = from; step > 0 ? i < to_exclusive : i > to_exclusive; i += step)
    v.push_back(i);
  return v;
}

bool contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// What rank 0 computed with the group operations (groups are local: one rank suffices).
struct GroupLog {
  std::vector<int> world, evens_reversed, without_first_and_last, range_incl, range_excl, uni,
      inter, diff, translated, split_in_world;
  int world_rank = -1, evens_rank = -1, empty_size = -1;
  int cmp_same = -1, cmp_reordered = -1, cmp_other = -1, cmp_copy = -1;
  MPI_Group after_free = 0;
};

class GroupsTest : public testing::TestWithParam<int> {};

TEST_P(GroupsTest, OperationsGiveTheHandComputedRankLists) {
  const int size = GetParam();
  GroupLog log;
  std::vector<std::vector<int>> split_members(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    // Every rank: the group of its part of a split by thirds, read back in world ranks.
    MPI_Comm third;
    MPI_Comm_split(MPI_COMM_WORLD, me % 3, -me, &third);
    MPI_Group third_group;
    MPI_Comm_group(third, &third_group);
    split_members[static_cast<std::size_t>(me)] = members(third_group, world);
    MPI_Group_free(&third_group);
    MPI_Comm_free(&third);
    if (me == 0) {
      log.world = members(world, world);
      MPI_Group_rank(world, &log.world_rank);

      std::vector<int> evens_desc; // world ranks size-1.. down to 0, even ones
      for (int r = size - 1; r >= 0; --r)
        if (r % 2 == 0) evens_desc.push_back(r);
      MPI_Group evens;
      MPI_Group_incl(world, static_cast<int>(evens_desc.size()), evens_desc.data(), &evens);
      log.evens_reversed = members(evens, world);
      MPI_Group_rank(evens, &log.evens_rank);

      const int ends[2] = {0, size - 1};
      MPI_Group middle;
      MPI_Group_excl(world, size > 1 ? 2 : 1, ends, &middle);
      log.without_first_and_last = members(middle, world);

      int incl_ranges[2][3] = {{size - 1, 0, -3}, {size - 2, 0, -3}};
      const int nranges = size > 1 ? 2 : 1;
      MPI_Group ranged;
      MPI_Group_range_incl(world, nranges, incl_ranges, &ranged);
      log.range_incl = members(ranged, world);
      int excl_ranges[1][3] = {{0, size - 1, 2}};
      MPI_Group odds;
      MPI_Group_range_excl(world, 1, excl_ranges, &odds);
      log.range_excl = members(odds, world);

      MPI_Group u, in, d;
      MPI_Group_union(evens, ranged, &u); // evens' order, then ranged's others in its order
      log.uni = members(u, world);
      MPI_Group_intersection(ranged, evens, &in); // ranged's order
      log.inter = members(in, world);
      MPI_Group_difference(world, evens, &d);
      log.diff = members(d, world);

      const std::vector<int> ask = {MPI_PROC_NULL, 0, size - 1, size / 2};
      log.translated.assign(ask.size(), -99);
      MPI_Group_translate_ranks(world, 4, ask.data(), evens, log.translated.data());

      MPI_Group empty;
      MPI_Group_difference(evens, world, &empty);
      MPI_Group_size(empty, &log.empty_size);

      MPI_Group reversed, copy;
      std::vector<int> all_desc = iota(size - 1, -1, -1);
      MPI_Group_incl(world, size, all_desc.data(), &reversed);
      MPI_Group_incl(world, size, iota(0, size).data(), &copy);
      MPI_Group_compare(world, copy, &log.cmp_same);
      MPI_Group_compare(world, reversed, &log.cmp_reordered);
      MPI_Group_compare(world, evens, &log.cmp_other);
      MPI_Group_compare(evens, evens, &log.cmp_copy);

      for (MPI_Group* g : {&evens, &middle, &ranged, &odds, &u, &in, &d, &empty, &reversed, &copy})
        MPI_Group_free(g);
      log.after_free = evens;
    }
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;

  std::vector<int> evens_desc, ranged, odds, middle;
  for (int r = size - 1; r >= 0; --r)
    if (r % 2 == 0) evens_desc.push_back(r);
  for (int r = size - 1; r >= 0; r -= 3)
    ranged.push_back(r);
  for (int r = size - 2; r >= 0; r -= 3)
    ranged.push_back(r);
  for (int r = 0; r < size; ++r) {
    if (r % 2) odds.push_back(r);
    if (r != 0 && r != size - 1) middle.push_back(r);
  }
  std::vector<int> uni = evens_desc, inter;
  for (int r : ranged)
    if (!contains(evens_desc, r)) uni.push_back(r);
  for (int r : ranged)
    if (contains(evens_desc, r)) inter.push_back(r);
  auto index_in = [](const std::vector<int>& v, int x) {
    auto it = std::find(v.begin(), v.end(), x);
    return it == v.end() ? MPI_UNDEFINED : static_cast<int>(it - v.begin());
  };

  EXPECT_EQ(log.world, iota(0, size));
  EXPECT_EQ(log.world_rank, 0);
  EXPECT_EQ(log.evens_reversed, evens_desc);
  EXPECT_EQ(log.evens_rank, index_in(evens_desc, 0));
  EXPECT_EQ(log.without_first_and_last, middle);
  EXPECT_EQ(log.range_incl, ranged);
  EXPECT_EQ(log.range_excl, odds);
  EXPECT_EQ(log.uni, uni);
  EXPECT_EQ(log.inter, inter);
  EXPECT_EQ(log.diff, odds);
  EXPECT_EQ(log.translated,
            (std::vector<int>{MPI_PROC_NULL, index_in(evens_desc, 0),
                              index_in(evens_desc, size - 1), index_in(evens_desc, size / 2)}));
  EXPECT_EQ(log.empty_size, 0);
  EXPECT_EQ(log.cmp_same, MPI_IDENT);
  EXPECT_EQ(log.cmp_reordered, size == 1 ? MPI_IDENT : MPI_SIMILAR);
  EXPECT_EQ(log.cmp_other, size == 1 ? MPI_IDENT : MPI_UNEQUAL);
  EXPECT_EQ(log.cmp_copy, MPI_IDENT);
  EXPECT_EQ(log.after_free, MPI_GROUP_NULL);
  for (int r = 0; r < size; ++r) {
    std::vector<int> third;
    for (int q = size - 1; q >= 0; --q) // key -q: descending world rank
      if (q % 3 == r % 3) third.push_back(q);
    EXPECT_EQ(split_members[static_cast<std::size_t>(r)], third) << "rank " << r;
  }
}

TEST_P(GroupsTest, GroupRankIsUndefinedOutsideAndSelfHoldsTheCaller) {
  const int size = GetParam();
  std::vector<int> rank_in_first(static_cast<std::size_t>(size)), self_world(rank_in_first);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    MPI_Group world, first, self;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    const int zero = 0;
    MPI_Group_incl(world, 1, &zero, &first);
    MPI_Group_rank(first, &rank_in_first[static_cast<std::size_t>(me)]);
    MPI_Comm_group(MPI_COMM_SELF, &self);
    MPI_Group_translate_ranks(self, 1, &zero, world, &self_world[static_cast<std::size_t>(me)]);
    for (MPI_Group* g : {&world, &first, &self})
      MPI_Group_free(g);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    EXPECT_EQ(rank_in_first[static_cast<std::size_t>(r)], r == 0 ? 0 : MPI_UNDEFINED);
    EXPECT_EQ(self_world[static_cast<std::size_t>(r)], r);
  }
}

INSTANTIATE_TEST_SUITE_P(Groups, GroupsTest, testing::Values(1, 2, 3, 7, 16, 33),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "ranks";
                         });

TEST(Groups, ErrorClassesOfBadArguments) {
  std::vector<int> codes;
  auto summary = test::simulate(test::config(4), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (test::world_rank() == 0) {
      MPI_Group world, out;
      MPI_Comm_group(MPI_COMM_WORLD, &world);
      int size = 0;
      const MPI_Group bogus = static_cast<MPI_Group>(0x88000fff);
      codes.push_back(MPI_Group_size(bogus, &size));
      codes.push_back(MPI_Group_size(MPI_GROUP_NULL, &size));
      const int out_of_range[1] = {4};
      codes.push_back(MPI_Group_incl(world, 1, out_of_range, &out));
      const int twice[2] = {1, 1};
      codes.push_back(MPI_Group_incl(world, 2, twice, &out));
      codes.push_back(MPI_Group_excl(world, -1, twice, &out));
      int zero_stride[1][3] = {{0, 3, 0}};
      codes.push_back(MPI_Group_range_incl(world, 1, zero_stride, &out));
      int past_end[1][3] = {{0, 4, 1}};
      codes.push_back(MPI_Group_range_excl(world, 1, past_end, &out));
      int overlapping[2][3] = {{0, 2, 1}, {2, 3, 1}};
      codes.push_back(MPI_Group_range_incl(world, 2, overlapping, &out));
      const int bad[1] = {7};
      int translated;
      codes.push_back(MPI_Group_translate_ranks(world, 1, bad, world, &translated));
      codes.push_back(MPI_Group_union(world, bogus, &out));
      MPI_Group null_group = MPI_GROUP_NULL;
      codes.push_back(MPI_Group_free(&null_group));
      MPI_Group_free(&world);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(codes, (std::vector<int>{MPI_ERR_GROUP, MPI_ERR_GROUP, MPI_ERR_RANK, MPI_ERR_RANK,
                                     MPI_ERR_ARG, MPI_ERR_ARG, MPI_ERR_RANK, MPI_ERR_RANK,
                                     MPI_ERR_RANK, MPI_ERR_GROUP, MPI_ERR_GROUP}));
}

} // namespace
