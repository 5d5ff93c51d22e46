// MPI entry points of intercommunicators: making (MPI_Intercomm_create), merging, and asking
// about the remote group. MPI_Comm_size, _rank and _group report the local group as for any
// communicator; MPI_Comm_test_inter is with the other communicator queries (api_comm.cpp).
#include "api_call.hpp"
#include "intercomm.hpp"

using namespace mpilite;

namespace {

int null_out(ApiCall& c, MPI_Comm comm, const char* what) {
  return c.error(comm, MPI_ERR_ARG, "null {} argument", what);
}

/// `comm` must be an intercommunicator.
int check_inter(ApiCall& c, MPI_Comm comm, Comm*& out) {
  if (int e = c.check_comm(comm, out)) return e;
  if (out->inter()) return MPI_SUCCESS;
  return c.error(comm, MPI_ERR_COMM, "{} is not an intercommunicator", out->label());
}

/// What only the local leader passes to MPI_Intercomm_create: peer_comm, remote_leader, tag.
/// `peer` gets the remote leader's world rank.
int check_leader_args(ApiCall& c, const Comm& local, MPI_Comm peer_comm, int remote_leader, int tag,
                      Comm*& pc, int& peer) {
  if (int e = c.check_comm(peer_comm, pc)) return e;
  if (remote_leader < 0 || remote_leader >= pc->peer_count())
    return c.error(peer_comm, MPI_ERR_RANK, "invalid remote leader {} ({} has {} ranks)",
                   remote_leader, pc->label(), pc->peer_count());
  if (int e = c.check_tag(*pc, tag, false)) return e;
  peer = pc->peer_world(remote_leader, c.r.id);
  if (local.self ? peer == c.r.id : local.rank_of(peer) != MPI_UNDEFINED)
    return c.error(local.handle, MPI_ERR_RANK,
                   "the remote leader (world rank {}) is a member of the local group {}", peer,
                   local.label());
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm* newintercomm) {
  ApiCall c("MPI_Intercomm_create");
  Comm* lc;
  if (int e = c.check_intracomm(local_comm, lc)) return e;
  if (!newintercomm) return null_out(c, local_comm, "newintercomm");
  if (local_leader < 0 || local_leader >= lc->size)
    return c.error(local_comm, MPI_ERR_RANK, "invalid local leader {} ({} has {} ranks)",
                   local_leader, lc->label(), lc->size);
  c.collective(local_comm);
  // MPI: peer_comm, remote_leader and tag are significant only at the local leader.
  Comm* pc = nullptr;
  int peer = MPI_PROC_NULL;
  const bool leader = lc->rank_of(c.r.id) == local_leader;
  if (leader)
    if (int e = check_leader_args(c, *lc, peer_comm, remote_leader, tag, pc, peer)) return e;
  const int e =
      create_intercomm(c, {*lc, local_leader, peer, tag, pc ? pc->context : 0, pc}, newintercomm);
  // What other ranks pass as the peer communicator may be none of theirs: recorded as none.
  if (e == MPI_SUCCESS)
    MPISIM_RECORD_OP(c, "intercomm_create", CommArg{local_comm}, local_leader,
                     CommArg{leader ? peer_comm : MPI_COMM_NULL}, remote_leader, tag,
                     NewCommArg{*newintercomm});
  return e;
}
MPISIM_WEAK_ALIAS(Intercomm_create)

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  ApiCall c("MPI_Intercomm_merge");
  Comm* cm;
  if (int e = check_inter(c, intercomm, cm)) return e;
  if (!newintracomm) return null_out(c, intercomm, "newintracomm");
  c.collective(intercomm);
  const int e = merge_intercomm(c, *cm, high != 0, newintracomm);
  if (e == MPI_SUCCESS)
    MPISIM_RECORD_OP(c, "intercomm_merge", CommArg{intercomm}, high != 0 ? 1 : 0,
                     NewCommArg{*newintracomm});
  return e;
}
MPISIM_WEAK_ALIAS(Intercomm_merge)

int PMPI_Comm_remote_size(MPI_Comm comm, int* size) {
  ApiCall c("MPI_Comm_remote_size");
  Comm* cm;
  if (int e = check_inter(c, comm, cm)) return e;
  if (!size) return null_out(c, comm, "size");
  *size = cm->remote->size();
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_remote_size)

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  ApiCall c("MPI_Comm_remote_group");
  Comm* cm;
  if (int e = check_inter(c, comm, cm)) return e;
  if (!group) return null_out(c, comm, "group");
  *group = c.w.groups().add(cm->remote);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_remote_group)

} // extern "C"
