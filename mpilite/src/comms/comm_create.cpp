#include "comm_create.hpp"

#include <algorithm>
#include <vector>

#include "api_call.hpp"
#include "attributes.hpp"
#include "comm_agreement.hpp"
#include "intercomm.hpp"

namespace mpilite {
namespace {

/// Calls `f(rank)` for each member of `g` that lives in this host process.
template <class F> void for_local_members(World& w, const RankList& g, F f) {
  const auto& ranks = w.ranks();
  if (ranks.empty()) return;
  const int lo = ranks.front()->id, hi = ranks.back()->id;
  if (g.is_identity() && hi - lo + 1 == static_cast<int>(ranks.size())) {
    for (int i = lo; i <= hi && i < g.size(); ++i)
      f(*ranks[static_cast<std::size_t>(i - lo)]);
    return;
  }
  for (int i = 0; i < g.size(); ++i)
    if (Rank* r = w.local(g.world(i))) f(*r);
}

int count_local(World& w, const RankList& g) {
  int n = 0;
  for_local_members(w, g, [&n](Rank&) { ++n; });
  return n;
}

/// Whether a receive posted on `comm` by one of its local members is still unmatched.
bool has_pending_receive(World& w, const Comm& comm) {
  bool found = false;
  for_local_members(w, *comm.group, [&](Rank& r) {
    for (const Request* q : r.posted)
      found = found || q->comm == &comm;
  });
  return found;
}

int no_context(ApiCall& c, const Comm& over) {
  return c.error(over.handle, MPI_ERR_OTHER,
                 "no context id is free at every member of {}: a rank holds {} communicators "
                 "(free unused ones with MPI_Comm_free)",
                 over.label(), ContextMask::kBits);
}

/// Makes the caller a member of `made`, which it has just joined in the table under `context`.
MPI_Comm enter(ApiCall& c, const Comm& parent, int context, Comm& made,
               std::shared_ptr<const Topology> topo) {
  take_context(c.r, context);
  made.topology = std::move(topo);
  // MPI-3.1 section 8.3: a new communicator inherits the error handler of its parent.
  const MPI_Errhandler handler = c.r.comms.errhandler(parent.handle);
  c.w.errhandlers().retain(handler);
  CommLocal& local = c.r.comms.at(made.handle);
  local = CommLocal{};
  local.errhandler = handler;
  return made.handle;
}

CommTable::CountLocal local_counter(World& w) {
  return [&w](const RankList& g) { return count_local(w, g); };
}

int agree_or_fail(ApiCall& c, const Comm& over, int& context) {
  // An intercommunicator's new context must be free at the members of both groups.
  context = over.inter() ? agree_context_across(c.w, c.r, leader_link(over))
                         : agree_context(c.w, c.r, over);
  return new_context(c, over, context);
}

} // namespace

std::shared_ptr<const RankList> members_of(const Comm& c, const Rank& r) {
  return c.self ? RankList::of({r.id}) : c.group;
}

int dup_comm(ApiCall& c, const Comm& parent, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  int context;
  if (int e = agree_or_fail(c, parent, context)) return e;
  // Same members as the parent, hence the same local members.
  const CommTable::CountLocal count = [&](const RankList&) { return parent.local_members; };
  Comm& made = c.w.comms().join(context, members_of(parent, c.r), count);
  made.remote = parent.remote;
  const MPI_Comm h = enter(c, parent, context, made, parent.topology);
  if (const CommLocal* l = c.r.comms.find(parent.handle))
    c.r.comms.at(h).dist_graph = l->dist_graph; // the member's own part of the topology
  if (int e = copy_attributes(c, parent, *c.w.comm(h))) {
    free_comm(c, *c.w.comm(h));
    return e;
  }
  *out = h;
  return MPI_SUCCESS;
}

MPI_Comm join_new(ApiCall& c, const Comm& parent, int context,
                  std::shared_ptr<const RankList> group, std::shared_ptr<const RankList> remote) {
  Comm& made = c.w.comms().join(context, std::move(group), local_counter(c.w));
  made.remote = std::move(remote);
  return enter(c, parent, context, made, nullptr);
}

int new_context(ApiCall& c, const Comm& over, int context) {
  return context < 0 ? no_context(c, over) : MPI_SUCCESS;
}

int create_comm(ApiCall& c, const Comm& parent, std::shared_ptr<const RankList> group,
                std::shared_ptr<const Topology> topo, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  int context;
  if (int e = agree_or_fail(c, parent, context)) return e;
  if (!group || group->rank(c.r.id) == MPI_UNDEFINED) return MPI_SUCCESS;
  Comm& made = c.w.comms().join(context, std::move(group), local_counter(c.w));
  *out = enter(c, parent, context, made, std::move(topo));
  return MPI_SUCCESS;
}

Comm group_part(Rank& r, const Comm& parent, std::shared_ptr<const RankList> group, int tag) {
  // Its collective context is the parent's subset context, so that its messages meet no other
  // traffic of the parent.
  Comm over;
  over.handle = parent.handle;
  over.context = parent.subset_context() - 1;
  over.size = group->size();
  over.group = std::move(group);
  over.name = parent.name;
  // Its messages carry the call's tag, as MPICH's do: a collective schedule tags its messages
  // with the count of collectives its rank started on the context, and the members' counts on
  // the subset context differ (each call involves other ranks of the parent).
  r.collectives_started[over.coll_context()] = static_cast<std::uint32_t>(tag);
  return over;
}

int create_comm_of_group(ApiCall& c, const Comm& parent, std::shared_ptr<const RankList> group,
                         int tag, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  const Comm over = group_part(c.r, parent, group, tag);
  int context;
  if (int e = agree_or_fail(c, over, context)) return e;
  Comm& made = c.w.comms().join(context, std::move(group), local_counter(c.w));
  *out = enter(c, parent, context, made, nullptr);
  return MPI_SUCCESS;
}

int split_comm(ApiCall& c, const Comm& parent, int color, int key,
               std::shared_ptr<const Topology> topo, MPI_Comm* out) {
  *out = MPI_COMM_NULL;
  // A color's members in this host process share one group (split_group): p members each
  // waiting with their color's list would hold p^2 / colors entries in all.
  std::shared_ptr<const RankList> group = split_group(c.w, c.r, parent, {color, key});
  int context;
  if (int e = agree_or_fail(c, parent, context)) return e;
  if (!group) return MPI_SUCCESS; // MPI_UNDEFINED
  Comm& made = c.w.comms().join(context, std::move(group), local_counter(c.w));
  *out = enter(c, parent, context, made, std::move(topo));
  return MPI_SUCCESS;
}

int free_comm(ApiCall& c, Comm& comm) {
  if (int e = delete_attributes(c, comm)) return e;
  if (const CommLocal* l = c.r.comms.find(comm.handle)) {
    c.w.errhandlers().release(l->errhandler);
    c.r.comms.local.erase(comm.handle);
  }
  if (posted_on(c.r, comm.context))
    c.r.comms.held_after_free.push_back(comm.context);
  else
    release_context(c.r, comm.context);
  // A communicator that later takes this context starts counting its collectives at 0 on
  // every member (they tag the messages of its collectives with that count).
  c.r.collectives_started.erase(comm.coll_context());
  c.r.collectives_started.erase(comm.subset_context());
  World& w = c.w;
  w.comms().leave(comm, [&w](const Comm& x) { return has_pending_receive(w, x); });
  return MPI_SUCCESS;
}

} // namespace mpilite
