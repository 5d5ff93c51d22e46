#include "collectives_inter.hpp"

#include <vector>

#include "collectives.hpp"
#include "intercomm.hpp"
#include "p2p.hpp"
#include "world.hpp"

namespace mpilite {

void inter_barrier(World& w, Rank& r, const Comm& inter) {
  const LeaderLink l = leader_link(inter);
  barrier(w, r, l.local);
  // The leaders' exchange says the other group has entered; the broadcast that follows it in
  // swap_across holds the group's members until their leader knows.
  swap_across(w, r, l, nullptr, 0, nullptr, 0);
}

void inter_bcast(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type, int root,
                 const Comm& inter) {
  if (root == MPI_PROC_NULL) return;
  const LeaderLink l = leader_link(inter);
  if (root == MPI_ROOT) {
    Request* q = start_send(w, r, SendMode::Standard, buf, count, type, l.peer, l.tag, l.context);
    wait_all(w, r, &q, 1);
    w.free_request(q);
    return;
  }
  if (leads(l, r)) {
    Request* q =
        start_receive(w, r, buf, count, type, inter.remote->world(root), l.tag, l.context, inter);
    wait_all(w, r, &q, 1);
    w.free_request(q);
  }
  bcast(w, r, buf, count, type, l.leader, l.local);
}

int inter_allreduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
                    const Datatype& type, const Op& op, const Comm& inter) {
  const LeaderLink l = leader_link(inter);
  // The leader reduces its group's contributions into recvbuf, sends a packed copy of them
  // (recvbuf is about to receive the other group's) and broadcasts what it got.
  if (int e = reduce(w, r, sendbuf, recvbuf, count, type, op, l.leader, l.local)) return e;
  if (leads(l, r)) {
    std::vector<std::byte> mine(count * type.size);
    pack(recvbuf, count, type, mine.data());
    send_receive(w, r, mine.data(), mine.size(), *builtin_datatype(MPI_BYTE), l.peer, l.tag,
                 recvbuf, count, type, l.peer, l.tag, l.context, inter, MPI_STATUS_IGNORE);
  }
  bcast(w, r, recvbuf, count, type, l.leader, l.local);
  return MPI_SUCCESS;
}

} // namespace mpilite
