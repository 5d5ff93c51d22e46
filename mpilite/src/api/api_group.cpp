// MPI entry points: groups (MPI-3.1 section 6.3). Errors are raised on MPI_COMM_WORLD, as for
// every call that has no communicator.
#include <algorithm>
#include <vector>

#include "api_object_checks.hpp"

using namespace mpilite;

namespace {

using Members = std::shared_ptr<const RankList>;

int check_arg(ApiCall& c, bool ok, const char* what) {
  return ok ? MPI_SUCCESS : c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "{}", what);
}

int check_count(ApiCall& c, int n, const void* array) {
  if (n < 0) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative count {}", n);
  return check_arg(c, n == 0 || array, "null rank array with a positive count");
}

/// Checks that `ranks` are valid, distinct ranks of a group of `size` members.
int check_distinct_ranks(ApiCall& c, const std::vector<int>& ranks, int size) {
  std::vector<bool> seen(static_cast<std::size_t>(size));
  for (int r : ranks) {
    if (r < 0 || r >= size)
      return c.error(MPI_COMM_WORLD, MPI_ERR_RANK, "invalid rank {} (the group has {} members)", r,
                     size);
    if (seen[static_cast<std::size_t>(r)])
      return c.error(MPI_COMM_WORLD, MPI_ERR_RANK, "rank {} is given twice", r);
    seen[static_cast<std::size_t>(r)] = true;
  }
  return MPI_SUCCESS;
}

/// The ranks of MPI_Group_range_incl/excl's triplets (first, last, stride).
int expand_ranges(ApiCall& c, int n, int ranges[][3], int size, std::vector<int>& out) {
  if (int e = check_count(c, n, ranges)) return e;
  for (int i = 0; i < n; ++i) {
    const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "range {} has stride 0", i);
    if (first < 0 || first >= size || last < 0 || last >= size)
      return c.error(MPI_COMM_WORLD, MPI_ERR_RANK,
                     "range {} ({}, {}, {}) leaves the group's ranks 0..{}", i, first, last, stride,
                     size - 1);
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
      return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "range {} ({}, {}, {}) runs away from its last rank", i, first, last, stride);
    for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride)
      out.push_back(static_cast<int>(r));
  }
  return check_distinct_ranks(c, out, size);
}

/// Members of `g` at `ranks`, in that order.
Members include(const RankList& g, const std::vector<int>& ranks) {
  std::vector<int> world;
  world.reserve(ranks.size());
  for (int r : ranks)
    world.push_back(g.world(r));
  return RankList::of(std::move(world));
}

/// Members of `g` except those at `ranks`, in group order.
Members exclude(const RankList& g, const std::vector<int>& ranks) {
  std::vector<bool> out(static_cast<std::size_t>(g.size()));
  for (int r : ranks)
    out[static_cast<std::size_t>(r)] = true;
  std::vector<int> world;
  for (int i = 0; i < g.size(); ++i)
    if (!out[static_cast<std::size_t>(i)]) world.push_back(g.world(i));
  return RankList::of(std::move(world));
}

/// Members of `a` (in its order) that are / are not in `b`.
std::vector<int> filter(const RankList& a, const RankList& b, bool in_b) {
  std::vector<int> world;
  for (int i = 0; i < a.size(); ++i)
    if ((b.rank(a.world(i)) != MPI_UNDEFINED) == in_b) world.push_back(a.world(i));
  return world;
}

int new_group(ApiCall& c, MPI_Group* out, Members members) {
  if (int e = check_arg(c, out != nullptr, "null newgroup argument")) return e;
  *out = c.w.groups().add(std::move(members));
  return MPI_SUCCESS;
}

/// Shared frame of the calls that make a group from two.
template <class F>
int two_group_call(const char* name, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup,
                   F make) {
  ApiCall c(name);
  Members a, b;
  if (int e = c.check_init()) return e;
  if (int e = check_group(c, group1, a)) return e;
  if (int e = check_group(c, group2, b)) return e;
  return new_group(c, newgroup, make(*a, *b));
}

template <class F>
int rank_list_call(const char* name, MPI_Group group, int n, const int ranks[], MPI_Group* newgroup,
                   F make) {
  ApiCall c(name);
  Members g;
  if (int e = c.check_init()) return e;
  if (int e = check_group(c, group, g)) return e;
  if (int e = check_count(c, n, ranks)) return e;
  const std::vector<int> list(ranks, ranks + n);
  if (int e = check_distinct_ranks(c, list, g->size())) return e;
  return new_group(c, newgroup, make(*g, list));
}

template <class F>
int range_call(const char* name, MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup,
               F make) {
  ApiCall c(name);
  Members g;
  std::vector<int> list;
  if (int e = c.check_init()) return e;
  if (int e = check_group(c, group, g)) return e;
  if (int e = expand_ranges(c, n, ranges, g->size(), list)) return e;
  return new_group(c, newgroup, make(*g, list));
}

} // namespace

extern "C" {

int PMPI_Group_size(MPI_Group group, int* size) {
  ApiCall c("MPI_Group_size");
  if (int e = c.check_init()) return e;
  Members g;
  if (int e = check_group(c, group, g)) return e;
  if (int e = check_arg(c, size != nullptr, "null size argument")) return e;
  *size = g->size();
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Group_size)

int PMPI_Group_rank(MPI_Group group, int* rank) {
  ApiCall c("MPI_Group_rank");
  if (int e = c.check_init()) return e;
  Members g;
  if (int e = check_group(c, group, g)) return e;
  if (int e = check_arg(c, rank != nullptr, "null rank argument")) return e;
  *rank = g->rank(c.r.id);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Group_rank)

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return rank_list_call("MPI_Group_incl", group, n, ranks, newgroup, include);
}
MPISIM_WEAK_ALIAS(Group_incl)

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return rank_list_call("MPI_Group_excl", group, n, ranks, newgroup, exclude);
}
MPISIM_WEAK_ALIAS(Group_excl)

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return range_call("MPI_Group_range_incl", group, n, ranges, newgroup, include);
}
MPISIM_WEAK_ALIAS(Group_range_incl)

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return range_call("MPI_Group_range_excl", group, n, ranges, newgroup, exclude);
}
MPISIM_WEAK_ALIAS(Group_range_excl)

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return two_group_call("MPI_Group_union", group1, group2, newgroup,
                        [](const RankList& a, const RankList& b) {
                          std::vector<int> world(static_cast<std::size_t>(a.size()));
                          for (int i = 0; i < a.size(); ++i)
                            world[static_cast<std::size_t>(i)] = a.world(i);
                          const std::vector<int> more = filter(b, a, false);
                          world.insert(world.end(), more.begin(), more.end());
                          return RankList::of(std::move(world));
                        });
}
MPISIM_WEAK_ALIAS(Group_union)

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return two_group_call(
      "MPI_Group_intersection", group1, group2, newgroup,
      [](const RankList& a, const RankList& b) { return RankList::of(filter(a, b, true)); });
}
MPISIM_WEAK_ALIAS(Group_intersection)

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return two_group_call(
      "MPI_Group_difference", group1, group2, newgroup,
      [](const RankList& a, const RankList& b) { return RankList::of(filter(a, b, false)); });
}
MPISIM_WEAK_ALIAS(Group_difference)

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[]) {
  ApiCall c("MPI_Group_translate_ranks");
  if (int e = c.check_init()) return e;
  Members a, b;
  if (int e = check_group(c, group1, a)) return e;
  if (int e = check_group(c, group2, b)) return e;
  if (int e = check_count(c, n, ranks1)) return e;
  if (int e = check_arg(c, n == 0 || ranks2, "null ranks2 argument")) return e;
  for (int i = 0; i < n; ++i)
    if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size()))
      return c.error(MPI_COMM_WORLD, MPI_ERR_RANK,
                     "invalid rank {} at index {} (group1 has {} members)", ranks1[i], i,
                     a->size());
  for (int i = 0; i < n; ++i)
    ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : b->rank(a->world(ranks1[i]));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Group_translate_ranks)

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  ApiCall c("MPI_Group_compare");
  if (int e = c.check_init()) return e;
  Members a, b;
  if (int e = check_group(c, group1, a)) return e;
  if (int e = check_group(c, group2, b)) return e;
  if (int e = check_arg(c, result != nullptr, "null result argument")) return e;
  *result = a->same_order(*b) ? MPI_IDENT : a->same_set(*b) ? MPI_SIMILAR : MPI_UNEQUAL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Group_compare)

int PMPI_Group_free(MPI_Group* group) {
  ApiCall c("MPI_Group_free");
  if (int e = c.check_init()) return e;
  Members g;
  if (int e = check_arg(c, group != nullptr, "null group argument")) return e;
  if (int e = check_group(c, *group, g)) return e;
  c.w.groups().erase(*group); // MPI_GROUP_EMPTY stays, as in MPICH
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Group_free)

} // extern "C"
