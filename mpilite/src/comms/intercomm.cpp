#include "intercomm.hpp"

#include <algorithm>
#include <vector>

#include "api_call.hpp"
#include "collectives.hpp"
#include "comm_agreement.hpp"
#include "comm_create.hpp"

namespace mpilite {
namespace {

// Tag of the leaders' messages on an intercommunicator's collective context. Only its own
// agreements and collectives use that context, in the same order on both sides, so one tag
// serves them all.
constexpr int kLeaderTag = 1;

const Datatype& bytes() {
  return *builtin_datatype(MPI_BYTE);
}

/// The other group's list of ints for this group's `local` (as its leader has them): the lengths
/// first, then the lists.
std::vector<int> swap_lists(World& w, Rank& r, const LeaderLink& l, const std::vector<int>& local) {
  int n = static_cast<int>(local.size()), remote_n = 0;
  swap_across(w, r, l, &n, sizeof n, &remote_n, sizeof remote_n);
  std::vector<int> remote(static_cast<std::size_t>(remote_n));
  swap_across(w, r, l, local.data(), local.size() * sizeof(int), remote.data(),
              remote.size() * sizeof(int));
  return remote;
}

/// Both sides' lists of members (world ranks), each group's got from its leader.
std::vector<int> swap_members(World& w, Rank& r, const LeaderLink& l) {
  const auto mine = members_of(l.local, r);
  std::vector<int> local(static_cast<std::size_t>(mine->size()));
  for (int i = 0; i < mine->size(); ++i)
    local[static_cast<std::size_t>(i)] = mine->world(i);
  return swap_lists(w, r, l, local);
}

/// The end of MPI_Comm_split and MPI_Comm_create on an intercommunicator: both groups agree on a
/// context; the caller, if in `local`, joins the intercommunicator of `local` and `remote` unless
/// either is empty or null (MPI_COMM_NULL then).
int join_across(ApiCall& c, const Comm& inter, const LeaderLink& l,
                std::shared_ptr<const RankList> local, std::shared_ptr<const RankList> remote,
                MPI_Comm* out) {
  const int context = agree_context_across(c.w, c.r, l);
  if (int e = new_context(c, inter, context)) return e;
  if (!local || !remote || local->size() == 0 || remote->size() == 0 ||
      local->rank(c.r.id) == MPI_UNDEFINED)
    return MPI_SUCCESS;
  *out = join_new(c, inter, context, std::move(local), std::move(remote));
  return MPI_SUCCESS;
}

} // namespace

Comm local_part(const Comm& inter) {
  Comm local = inter;
  local.remote = nullptr;
  local.topology = nullptr;
  local.context = inter.subset_context() - 1;
  return local;
}

LeaderLink leader_link(const Comm& inter) {
  return {local_part(inter), 0, inter.remote->world(0), kLeaderTag, inter.coll_context(), &inter};
}

bool leads(const LeaderLink& l, const Rank& r) {
  return l.local.rank_of(r.id) == l.leader;
}

void swap_across(World& w, Rank& r, const LeaderLink& l, const void* mine, std::size_t n_mine,
                 void* theirs, std::size_t n_theirs) {
  if (leads(l, r))
    send_receive(w, r, mine, n_mine, bytes(), l.peer, l.tag, theirs, n_theirs, bytes(), l.peer,
                 l.tag, l.context, *l.over, MPI_STATUS_IGNORE);
  if (l.local.size > 1) bcast(w, r, theirs, n_theirs, bytes(), l.leader, l.local);
}

int agree_context_across(World& w, Rank& r, const LeaderLink& l) {
  return agree_by_parts([&](int part) {
    ContextWords mine = free_at_all(w, r, l.local, part), theirs{};
    swap_across(w, r, l, mine.data(), sizeof mine, theirs.data(), sizeof theirs);
    for (std::size_t i = 0; i < mine.size(); ++i)
      mine[i] &= theirs[i];
    return lowest_context(mine, part);
  });
}

int create_intercomm(ApiCall& c, const LeaderLink& l, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  const Comm& local_comm = l.local;
  const std::vector<int> remote = swap_members(c.w, c.r, l);
  // Every member sees both lists, so all of them raise this error alike.
  for (const int w : remote)
    if (local_comm.self ? w == c.r.id : local_comm.rank_of(w) != MPI_UNDEFINED)
      return c.error(local_comm.handle, MPI_ERR_COMM,
                     "world rank {} is in both groups (the groups of an intercommunicator must "
                     "be disjoint)",
                     w);
  const int context = agree_context_across(c.w, c.r, l);
  if (int e = new_context(c, local_comm, context)) return e;
  *out = join_new(c, local_comm, context, members_of(local_comm, c.r), RankList::of(remote));
  return MPI_SUCCESS;
}

int merge_intercomm(ApiCall& c, const Comm& inter, bool high, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  const LeaderLink l = leader_link(inter);
  const int mine = high ? 1 : 0;
  int theirs = 0;
  swap_across(c.w, c.r, l, &mine, sizeof mine, &theirs, sizeof theirs);
  const int context = agree_context_across(c.w, c.r, l);
  if (int e = new_context(c, inter, context)) return e;
  const bool local_first = mine != theirs ? !high : inter.group->world(0) < inter.remote->world(0);
  const RankList& first = local_first ? *inter.group : *inter.remote;
  const RankList& second = local_first ? *inter.remote : *inter.group;
  std::vector<int> members;
  members.reserve(static_cast<std::size_t>(first.size() + second.size()));
  for (const RankList* g : {&first, &second})
    for (int i = 0; i < g->size(); ++i)
      members.push_back(g->world(i));
  *out = join_new(c, inter, context, RankList::of(std::move(members)), nullptr);
  return MPI_SUCCESS;
}

int split_intercomm(ApiCall& c, const Comm& inter, int color, int key, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  const LeaderLink l = leader_link(inter);
  const std::vector<ColorKey> mine = allgather_color_key(c.w, c.r, l.local, {color, key});
  std::vector<int> flat;
  for (const ColorKey& x : mine)
    flat.insert(flat.end(), {x.color, x.key});
  const std::vector<int> theirs_flat = swap_lists(c.w, c.r, l, flat);
  std::vector<ColorKey> theirs;
  for (std::size_t i = 0; i + 1 < theirs_flat.size(); i += 2)
    theirs.push_back({theirs_flat[i], theirs_flat[i + 1]});
  auto of_color = [color](const std::vector<ColorKey>& entries, const RankList& g) {
    return group_of(color_groups(
                        entries, [&g](int i) { return g.world(i); }, color),
                    color);
  };
  return join_across(c, inter, l, of_color(mine, *inter.group), of_color(theirs, *inter.remote),
                     out);
}

int create_from_intercomm(ApiCall& c, const Comm& inter, const RankList& group, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  const LeaderLink l = leader_link(inter);
  std::vector<int> local(static_cast<std::size_t>(group.size()));
  for (int i = 0; i < group.size(); ++i)
    local[static_cast<std::size_t>(i)] = group.world(i);
  std::vector<int> remote = swap_lists(c.w, c.r, l, local);
  return join_across(c, inter, l, RankList::of(std::move(local)), RankList::of(std::move(remote)),
                     out);
}

} // namespace mpilite
