// MPI entry points: sessions (MPI-4.0 section 11.3). A session is local to its rank: it holds an
// error handler and names two process sets, mpi://WORLD and mpi://SELF (as MPICH 4 names them).
// Communicators made from a session's groups agree on their context over the world's ranks, as
// MPI_Comm_create_group does on MPI_COMM_WORLD; so do intercommunicators made from two groups,
// whose leaders exchange them as MPI_Intercomm_create's do over MPI_COMM_WORLD.
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "api_errhandler.hpp"
#include "api_object_checks.hpp"
#include "comm_create.hpp"
#include "intercomm.hpp"

using namespace mpilite;

namespace {

constexpr std::string_view kPsets[] = {"mpi://WORLD", "mpi://SELF"};

/// The slot of `session`'s handler in its rank's list, or null for a handle that is no open
/// session of the caller.
MPI_Errhandler* find_session(Rank& r, MPI_Session session) {
  const long i = static_cast<long>(session) - MPI_SESSION_NULL - 1;
  std::vector<MPI_Errhandler>& sessions = r.rare().sessions;
  if (i < 0 || i >= static_cast<long>(sessions.size())) return nullptr;
  MPI_Errhandler& slot = sessions[static_cast<std::size_t>(i)];
  return slot == MPI_ERRHANDLER_NULL ? nullptr : &slot;
}

/// A handle that names no session has no handler of its own: MPICH raises on the world's.
int check_session(ApiCall& c, MPI_Session session, MPI_Errhandler*& out) {
  out = find_session(c.r, session);
  if (out) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_SESSION, "invalid session {:#x}",
                 static_cast<unsigned>(session));
}

template <class... Args>
int session_error(ApiCall& c, MPI_Session session, int code, fmt::format_string<Args...> f,
                  Args&&... args) {
  return raise_object_error(c.w, c.r, &session, *find_session(c.r, session), c.name, code,
                            fmt::format(f, std::forward<Args>(args)...));
}

/// The members of pset `name` of an open session for the caller; MPI_ERR_ARG (as MPICH) for a
/// name that is none of kPsets or a null argument (`out`: the call's result).
int check_pset(ApiCall& c, MPI_Session session, const char* name, const void* out,
               std::shared_ptr<const RankList>& members) {
  MPI_Errhandler* handler;
  if (int e = check_session(c, session, handler)) return e;
  if (!name || !out) return session_error(c, session, MPI_ERR_ARG, "null argument");
  if (name == kPsets[0])
    members = members_of(*c.w.comm(MPI_COMM_WORLD), c.r);
  else if (name == kPsets[1])
    members = RankList::of({c.r.id});
  else
    return session_error(c, session, MPI_ERR_ARG, "unknown pset \"{}\"", name);
  return MPI_SUCCESS;
}

/// A tag for the messages of MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups,
/// from their string tag (FNV-1a). The top bit is set: MPI_Comm_create_group's tags, which run
/// on the same context, and the tags of the world's collectives, beside which the leaders of an
/// intercommunicator exchange their groups, are non-negative. The low bit is clear, so that the
/// tag is never MPI_ANY_TAG.
int tag_of(std::string_view stringtag) {
  std::uint32_t h = 2166136261u;
  for (unsigned char ch : stringtag)
    h = (h ^ ch) * 16777619u;
  return static_cast<int>((h | 0x80000000u) & ~1u);
}

/// The arguments that MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups share;
/// `g` gets the members of `group`, which must include the caller (`out`: the call's result).
int check_from_group(ApiCall& c, MPI_Group group, const char* stringtag, MPI_Info info,
                     MPI_Errhandler errhandler, const void* out,
                     std::shared_ptr<const RankList>& g) {
  InfoEntries* entries;
  if (int e = c.check_init()) return e;
  if (int e = check_group(c, group, g)) return e;
  if (int e = check_info(c, info, entries, true)) return e;
  if (!stringtag || !out)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null stringtag or result argument");
  if (!c.w.errhandlers().valid(errhandler))
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid error handler {:#x}",
                   static_cast<unsigned>(errhandler));
  if (g->rank(c.r.id) == MPI_UNDEFINED)
    return c.error(MPI_COMM_WORLD, MPI_ERR_GROUP, "the caller is not a member of the group");
  c.collective(MPI_COMM_WORLD);
  return MPI_SUCCESS;
}

/// A string tag as a record holds it: in hex after an "x" (it may hold spaces), so that the
/// replay passes the same string and its messages get the same tag.
std::string recorded_tag(std::string_view stringtag) {
  return hex_word('x', std::as_bytes(std::span(stringtag)));
}

/// A communicator made from groups (`made`: the result of making `*comm`) starts with the error
/// handler of the call, not the world's.
int with_handler(ApiCall& c, int made, MPI_Errhandler errhandler, const MPI_Comm* comm) {
  if (made == MPI_SUCCESS) c.w.errhandlers().replace(c.r.comms.at(*comm).errhandler, errhandler);
  return made;
}

/// The world rank of the remote leader of MPI_Intercomm_create_from_groups (the arguments that
/// only the local leader passes), or an error: it must be outside the local group `local`.
int check_remote_leader(ApiCall& c, const RankList& local, MPI_Group remote_group,
                        int remote_leader, int& peer, std::shared_ptr<const RankList>& remote) {
  if (int e = check_group(c, remote_group, remote)) return e;
  if (remote_leader < 0 || remote_leader >= remote->size())
    return c.error(MPI_COMM_WORLD, MPI_ERR_RANK,
                   "invalid remote leader {} (the remote group has {} ranks)", remote_leader,
                   remote->size());
  peer = remote->world(remote_leader);
  if (local.rank(peer) != MPI_UNDEFINED)
    return c.error(MPI_COMM_WORLD, MPI_ERR_RANK,
                   "the remote leader (world rank {}) is a member of the local group", peer);
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session) {
  ApiCall c("MPI_Session_init");
  InfoEntries* entries;
  if (int e = check_info(c, info, entries, true)) return e;
  if (!c.w.errhandlers().valid(errhandler))
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid error handler {:#x}",
                   static_cast<unsigned>(errhandler));
  if (!session) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null session argument");
  c.w.errhandlers().retain(errhandler);
  std::vector<MPI_Errhandler>& sessions = c.r.rare().sessions;
  sessions.push_back(errhandler);
  *session = MPI_SESSION_NULL + static_cast<int>(sessions.size());
  // The replay opens its sessions in the same order, so it gets the same handles.
  MPISIM_RECORD_OP(c, "session_init");
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_init)

int PMPI_Session_finalize(MPI_Session* session) {
  ApiCall c("MPI_Session_finalize");
  MPI_Errhandler* handler;
  if (!session) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null session argument");
  if (int e = check_session(c, *session, handler)) return e;
  c.w.errhandlers().release(*handler);
  *handler = MPI_ERRHANDLER_NULL;
  MPISIM_RECORD_OP(c, "session_finalize", static_cast<int>(*session - MPI_SESSION_NULL));
  *session = MPI_SESSION_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_finalize)

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info, int* npset_names) {
  ApiCall c("MPI_Session_get_num_psets");
  MPI_Errhandler* handler;
  if (int e = check_session(c, session, handler)) return e;
  if (!npset_names) return session_error(c, session, MPI_ERR_ARG, "null npset_names argument");
  *npset_names = static_cast<int>(std::size(kPsets));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_get_num_psets)

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info, int n, int* pset_len,
                              char* pset_name) {
  ApiCall c("MPI_Session_get_nth_pset");
  MPI_Errhandler* handler;
  if (int e = check_session(c, session, handler)) return e;
  if (n < 0 || n >= static_cast<int>(std::size(kPsets)))
    return session_error(c, session, MPI_ERR_ARG, "invalid pset index {} (there are {})", n,
                         std::size(kPsets));
  if (!pset_len) return session_error(c, session, MPI_ERR_ARG, "null pset_len argument");
  const std::string_view name = kPsets[n];
  // MPI-4.0: a length of 0 asks for the length the name needs, its null character included.
  if (*pset_len == 0) {
    *pset_len = static_cast<int>(name.size()) + 1;
    return MPI_SUCCESS;
  }
  if (!pset_name) return session_error(c, session, MPI_ERR_ARG, "null pset_name argument");
  const std::size_t copied = std::min(name.size(), static_cast<std::size_t>(*pset_len - 1));
  std::memcpy(pset_name, name.data(), copied);
  pset_name[copied] = '\0';
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_get_nth_pset)

int PMPI_Session_get_pset_info(MPI_Session session, const char* pset_name, MPI_Info* info) {
  ApiCall c("MPI_Session_get_pset_info");
  std::shared_ptr<const RankList> members;
  if (int e = check_pset(c, session, pset_name, info, members)) return e;
  *info = c.w.infos().add({{"mpi_size", std::to_string(members->size())}});
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_get_pset_info)

int PMPI_Session_get_info(MPI_Session session, MPI_Info* info_used) {
  ApiCall c("MPI_Session_get_info");
  MPI_Errhandler* handler;
  if (int e = check_session(c, session, handler)) return e;
  if (!info_used) return session_error(c, session, MPI_ERR_ARG, "null info_used argument");
  // The one hint a session has: the thread level its rank gets (as for MPI_Init_thread).
  *info_used = c.w.infos().add({{"thread_level", "MPI_THREAD_FUNNELED"}});
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_get_info)

int PMPI_Group_from_session_pset(MPI_Session session, const char* pset_name, MPI_Group* newgroup) {
  ApiCall c("MPI_Group_from_session_pset");
  std::shared_ptr<const RankList> members;
  if (int e = check_pset(c, session, pset_name, newgroup, members)) return e;
  *newgroup = c.w.groups().add(std::move(members));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Group_from_session_pset)

int PMPI_Comm_create_from_group(MPI_Group group, const char* stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm* newcomm) {
  ApiCall c("MPI_Comm_create_from_group");
  std::shared_ptr<const RankList> g;
  if (int e = check_from_group(c, group, stringtag, info, errhandler, newcomm, g)) return e;
  const Comm& world = *c.w.comm(MPI_COMM_WORLD);
  const int made = create_comm_of_group(c, world, g, tag_of(stringtag), newcomm);
  MPISIM_RECORD_OP(c, "comm_create_from_group", GroupArg{MPI_COMM_WORLD, g.get()},
                   recorded_tag(stringtag).c_str(), NewCommArg{*newcomm});
  return with_handler(c, made, errhandler, newcomm);
}
MPISIM_WEAK_ALIAS(Comm_create_from_group)

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char* stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm* newintercomm) {
  ApiCall c("MPI_Intercomm_create_from_groups");
  std::shared_ptr<const RankList> g;
  if (int e = check_from_group(c, local_group, stringtag, info, errhandler, newintercomm, g))
    return e;
  if (local_leader < 0 || local_leader >= g->size())
    return c.error(MPI_COMM_WORLD, MPI_ERR_RANK,
                   "invalid local leader {} (the local group has {} ranks)", local_leader,
                   g->size());
  // MPI: remote_group and remote_leader are significant only at the local leader.
  int peer = MPI_PROC_NULL;
  std::shared_ptr<const RankList> remote = RankList::of({});
  if (g->rank(c.r.id) == local_leader)
    if (int e = check_remote_leader(c, *g, remote_group, remote_leader, peer, remote)) return e;
  const std::shared_ptr<const RankList> members = g;
  // The leaders exchange the groups on the world's collective context, as MPICH does, so that
  // no receive of the program can take their messages; each group passes them on within itself
  // on the world's subset context, as MPI_Comm_create_from_group agrees.
  const Comm& world = *c.w.comm(MPI_COMM_WORLD);
  const int tag = tag_of(stringtag);
  const Comm local = group_part(c.r, world, std::move(g), tag);
  const LeaderLink link{local, local_leader, peer, tag, world.coll_context(), &world};
  const int made = create_intercomm(c, link, newintercomm);
  // The remote group as the local leader gave it (no members elsewhere: MPI reads it there only).
  MPISIM_RECORD_OP(c, "intercomm_create_from_groups", GroupArg{MPI_COMM_WORLD, members.get()},
                   local_leader, GroupArg{MPI_COMM_WORLD, remote.get()}, remote_leader,
                   recorded_tag(stringtag).c_str(), NewCommArg{*newintercomm});
  return with_handler(c, made, errhandler, newintercomm);
}
MPISIM_WEAK_ALIAS(Intercomm_create_from_groups)

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function* fn,
                                   MPI_Errhandler* errhandler) {
  ApiCall c("MPI_Session_create_errhandler");
  return create_errhandler(c, reinterpret_cast<void (*)()>(fn), errhandler);
}
MPISIM_WEAK_ALIAS(Session_create_errhandler)

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler) {
  ApiCall c("MPI_Session_set_errhandler");
  MPI_Errhandler* handler;
  if (int e = check_session(c, session, handler)) return e;
  if (!c.w.errhandlers().valid(errhandler))
    return session_error(c, session, MPI_ERR_ARG, "invalid error handler {:#x}",
                         static_cast<unsigned>(errhandler));
  c.w.errhandlers().replace(*handler, errhandler);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_set_errhandler)

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler* errhandler) {
  ApiCall c("MPI_Session_get_errhandler");
  MPI_Errhandler* handler;
  if (int e = check_session(c, session, handler)) return e;
  if (!errhandler) return session_error(c, session, MPI_ERR_ARG, "null errhandler argument");
  *errhandler = *handler;
  c.w.errhandlers().retain(*errhandler);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_get_errhandler)

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode) {
  ApiCall c("MPI_Session_call_errhandler");
  MPI_Errhandler* handler;
  if (int e = check_session(c, session, handler)) return e;
  session_error(c, session, errorcode, "error code {} raised by the program", errorcode);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Session_call_errhandler)

} // extern "C"
