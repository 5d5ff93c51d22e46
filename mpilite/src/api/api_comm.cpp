// MPI entry points: making, comparing, naming and freeing communicators.
#include <algorithm>
#include <cstring>

#include "api_object_checks.hpp"
#include "api_p2p.hpp"
#include "comm_create.hpp"
#include "intercomm.hpp"

using namespace mpilite;

namespace {

int check_out(ApiCall& c, MPI_Comm comm, const void* p, const char* what) {
  if (p) return MPI_SUCCESS;
  return c.error(comm, MPI_ERR_ARG, "null {} argument", what);
}

/// The name a rank sees for `comm` before giving it one.
const char* default_name(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (comm == MPI_COMM_SELF) return "MPI_COMM_SELF";
  return "";
}

/// MPI_Comm_dup and its variants; the non-blocking ones (non-null `request`) complete at once:
/// the new communicator is made as MPI_Comm_dup makes it, a collective of the ranks of `comm`.
int dup_call(const char* name, MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm,
             MPI_Request* request = nullptr, bool nonblocking = false) {
  ApiCall c(name);
  Comm* cm;
  InfoEntries* entries;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_info(c, info, entries, true, comm)) return e;
  if (int e = check_out(c, comm, newcomm, "newcomm")) return e;
  if (nonblocking && !request) return c.error(comm, MPI_ERR_ARG, "null request pointer");
  c.collective(comm);
  // Info hints are accepted and not kept: mpisim uses none, so MPI_Comm_get_info has none.
  const int e = dup_comm(c, *cm, newcomm);
  if (!nonblocking) {
    MPISIM_RECORD_OP(c, "dup", CommArg{comm}, NewCommArg{*newcomm});
  } else if (e == MPI_SUCCESS) {
    Request* q = completed_request(c.w, c.r, RequestKind::Send);
    q->status = empty_status();
    *request = q->handle;
    MPISIM_RECORD_OP(c, "idup", CommArg{comm}, NewCommArg{*newcomm}, NewRequestArg{*request});
  }
  return e;
}

} // namespace

extern "C" {

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return dup_call("MPI_Comm_dup", comm, MPI_INFO_NULL, newcomm);
}
MPISIM_WEAK_ALIAS(Comm_dup)

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return dup_call("MPI_Comm_dup_with_info", comm, info, newcomm);
}
MPISIM_WEAK_ALIAS(Comm_dup_with_info)

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return dup_call("MPI_Comm_idup", comm, MPI_INFO_NULL, newcomm, request, true);
}
MPISIM_WEAK_ALIAS(Comm_idup)

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm,
                             MPI_Request* request) {
  return dup_call("MPI_Comm_idup_with_info", comm, info, newcomm, request, true);
}
MPISIM_WEAK_ALIAS(Comm_idup_with_info)

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  ApiCall c("MPI_Comm_split");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_out(c, comm, newcomm, "newcomm")) return e;
  if (color < 0 && color != MPI_UNDEFINED)
    return c.error(comm, MPI_ERR_ARG, "invalid color {} (must be >= 0 or MPI_UNDEFINED)", color);
  c.collective(comm);
  const int e = cm->inter() ? split_intercomm(c, *cm, color, key, newcomm)
                            : split_comm(c, *cm, color, key, nullptr, newcomm);
  MPISIM_RECORD_OP(c, "split", CommArg{comm}, color, key, NewCommArg{*newcomm});
  return e;
}
MPISIM_WEAK_ALIAS(Comm_split)

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  ApiCall c("MPI_Comm_split_type");
  Comm* cm;
  InfoEntries* entries;
  if (int e = c.check_intracomm(comm, cm)) return e;
  if (int e = check_info(c, info, entries, true, comm)) return e;
  if (int e = check_out(c, comm, newcomm, "newcomm")) return e;
  if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
    return c.error(comm, MPI_ERR_ARG,
                   "invalid split type {} (MPI_COMM_TYPE_SHARED or MPI_UNDEFINED)", split_type);
  c.collective(comm);
  const int color = split_type == MPI_UNDEFINED ? MPI_UNDEFINED : c.w.node_of(c.r.id);
  const int e = split_comm(c, *cm, color, key, nullptr, newcomm);
  // Recorded as the split it made: the replay keeps the recorded groups on any machine, and
  // says its prediction is approximate where this machine's nodes are not the record's.
  if (split_type == MPI_COMM_TYPE_SHARED) MPISIM_RECORD_OP(c, "node", color);
  MPISIM_RECORD_OP(c, "split", CommArg{comm}, color, key, NewCommArg{*newcomm});
  return e;
}
MPISIM_WEAK_ALIAS(Comm_split_type)

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  ApiCall c("MPI_Comm_create");
  Comm* cm;
  std::shared_ptr<const RankList> g;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_group(c, group, g, comm)) return e;
  if (int e = check_out(c, comm, newcomm, "newcomm")) return e;
  // On an intercommunicator, `group` is part of the caller's own group (MPI-3.1 section 6.4.2).
  for (int i = 0; i < g->size(); ++i)
    if (cm->self ? g->world(i) != c.r.id : cm->rank_of(g->world(i)) == MPI_UNDEFINED)
      return c.error(comm, MPI_ERR_GROUP, "group member {} (world rank {}) is not a member of {}{}",
                     i, g->world(i), cm->inter() ? "the local group of " : "", cm->label());
  c.collective(comm);
  if (cm->inter()) return create_from_intercomm(c, *cm, *g, newcomm);
  const int e = create_comm(c, *cm, g, nullptr, newcomm);
  MPISIM_RECORD_OP(c, "comm_create", CommArg{comm}, GroupArg{comm, g.get()}, NewCommArg{*newcomm});
  return e;
}
MPISIM_WEAK_ALIAS(Comm_create)

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  ApiCall c("MPI_Comm_create_group");
  Comm* cm;
  std::shared_ptr<const RankList> g;
  if (int e = c.check_intracomm(comm, cm)) return e;
  if (int e = check_group(c, group, g, comm)) return e;
  if (int e = c.check_tag(*cm, tag, false)) return e;
  if (int e = check_out(c, comm, newcomm, "newcomm")) return e;
  for (int i = 0; i < g->size(); ++i)
    if (cm->self ? g->world(i) != c.r.id : cm->rank_of(g->world(i)) == MPI_UNDEFINED)
      return c.error(comm, MPI_ERR_GROUP, "group member {} (world rank {}) is not a member of {}",
                     i, g->world(i), cm->label());
  c.collective(comm);
  // As in MPICH, a caller outside the group gets MPI_COMM_NULL and takes part in nothing.
  // Concurrent calls with overlapping groups are told apart by `tag`.
  const int e = g->rank(c.r.id) == MPI_UNDEFINED ? (*newcomm = MPI_COMM_NULL, MPI_SUCCESS)
                                                 : create_comm_of_group(c, *cm, g, tag, newcomm);
  MPISIM_RECORD_OP(c, "comm_create_group", CommArg{comm}, tag, GroupArg{comm, g.get()},
                   NewCommArg{*newcomm});
  return e;
}
MPISIM_WEAK_ALIAS(Comm_create_group)

int PMPI_Comm_free(MPI_Comm* comm) {
  ApiCall c("MPI_Comm_free");
  Comm* cm;
  if (int e = check_out(c, MPI_COMM_WORLD, comm, "comm")) return e;
  if (int e = c.check_comm(*comm, cm)) return e;
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return c.error(*comm, MPI_ERR_COMM, "{} cannot be freed", cm->label());
  MPISIM_RECORD_OP(c, "free", CommArg{*comm});
  if (int e = free_comm(c, *cm)) return e;
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_free)

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  ApiCall c("MPI_Comm_compare");
  Comm *a, *b;
  if (int e = c.check_comm(comm1, a)) return e;
  if (int e = c.check_comm(comm2, b)) return e;
  if (int e = check_out(c, comm1, result, "result")) return e;
  const auto ga = members_of(*a, c.r), gb = members_of(*b, c.r);
  // Intercommunicators compare their local and their remote groups alike.
  const auto ra = a->remote ? a->remote : RankList::of({}),
             rb = b->remote ? b->remote : RankList::of({});
  *result = a == b                                           ? MPI_IDENT
            : a->inter() != b->inter() || !ra->same_set(*rb) ? MPI_UNEQUAL
            : ga->same_order(*gb) && ra->same_order(*rb)     ? MPI_CONGRUENT
            : ga->same_set(*gb)                              ? MPI_SIMILAR
                                                             : MPI_UNEQUAL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_compare)

int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  ApiCall c("MPI_Comm_group");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_out(c, comm, group, "group")) return e;
  *group = c.w.groups().add(members_of(*cm, c.r));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_group)

int PMPI_Comm_set_name(MPI_Comm comm, const char* comm_name) {
  ApiCall c("MPI_Comm_set_name");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_out(c, comm, comm_name, "comm_name")) return e;
  // Names are local to each process; the shared object keeps the last one for messages.
  const std::string name(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
  CommLocal& l = c.r.comms.at(comm);
  l.named = true;
  l.name = name;
  cm->name = name;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_set_name)

int PMPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen) {
  ApiCall c("MPI_Comm_get_name");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_out(c, comm, comm_name, "comm_name")) return e;
  if (int e = check_out(c, comm, resultlen, "resultlen")) return e;
  const CommLocal* l = c.r.comms.find(comm);
  const std::string name = l && l->named ? l->name : default_name(comm);
  std::memcpy(comm_name, name.c_str(), name.size() + 1);
  *resultlen = static_cast<int>(name.size());
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_get_name)

int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  ApiCall c("MPI_Comm_test_inter");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_out(c, comm, flag, "flag")) return e;
  *flag = cm->inter() ? 1 : 0;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_test_inter)

int PMPI_Comm_get_parent(MPI_Comm* parent) {
  ApiCall c("MPI_Comm_get_parent");
  if (int e = c.check_init()) return e;
  if (!parent) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null parent argument");
  // No rank was started by MPI_Comm_spawn (mpisim has none): every program asks only to learn
  // that it is the parent.
  *parent = MPI_COMM_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_get_parent)

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  ApiCall c("MPI_Comm_set_info");
  Comm* cm;
  InfoEntries* entries;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_info(c, info, entries, false, comm)) return e;
  return MPI_SUCCESS; // no hint changes what mpisim does, so none is kept
}
MPISIM_WEAK_ALIAS(Comm_set_info)

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  ApiCall c("MPI_Comm_get_info");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = check_out(c, comm, info_used, "info_used")) return e;
  *info_used = c.w.infos().add();
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_get_info)

} // extern "C"
