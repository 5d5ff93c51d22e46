#include "collectives_inter.hpp"

#include <algorithm>
#include <numeric>

#include "collective_buffers.hpp"
#include "collective_thresholds.hpp"

namespace mpilite {
namespace {

const Datatype& bytes_type() {
  return *builtin_datatype(MPI_BYTE);
}

bool leads(const Schedule& s) {
  return s.rank() == 0;
}

bool empty(std::size_t count, const Datatype& type) {
  return count * type.size == 0;
}

/// One message between the caller and rank `peer` of the other group, unless it is empty.
CollTask across(Schedule& s, bool send, const void* buf, std::size_t count, const Datatype& type,
                int peer) {
  if (empty(count, type)) co_return;
  if (send)
    s.post_send_across(buf, count, type, peer);
  else
    s.post_recv_across(const_cast<void*>(buf), count, type, peer);
  co_await s.wait();
}

/// The receiving group's side of a broadcast across: its leader gets `buf` from rank `root` of
/// the other group and broadcasts it within the group.
CollTask bcast_in(Schedule& s, void* buf, std::size_t count, const Datatype& type, int root) {
  if (empty(count, type)) co_return;
  if (leads(s)) co_await across(s, false, buf, count, type, root);
  co_await build_bcast(s, buf, count, type, 0);
}

/// A broadcast across each way, the low group's first (MPICH's order): the leader sends `out`
/// to the other leader, which broadcasts it; then the other group's data comes into `in`.
CollTask bcast_both_ways(Schedule& s, const void* out, std::size_t ocount, const Datatype& otype,
                         void* in, std::size_t icount, const Datatype& itype) {
  const bool low = s.low_group();
  for (int step = 0; step < 2; ++step) {
    if ((step == 0) != low)
      co_await bcast_in(s, in, icount, itype, 0);
    else if (leads(s))
      co_await across(s, true, out, ocount, otype, 0);
  }
}

/// A group's side of a reduction across: reduced within the group to its leader, which sends the
/// result to rank `root` of the other group.
CollTask reduce_out(Schedule& s, const void* sendbuf, std::size_t count, const Datatype& type,
                    int root) {
  if (empty(count, type)) co_return;
  void* acc = leads(s) ? s.scratch(count, type) : nullptr;
  co_await build_reduce(s, sendbuf, acc, count, type, 0);
  if (leads(s)) co_await across(s, true, acc, count, type, root);
}

/// The root of a linear gatherv (`send` false) or scatterv across: a message with each rank of
/// the other group whose block is not empty.
CollTask blocks_across(Schedule& s, bool send, const void* buf, const int* counts,
                       const int* displs, const Datatype& type) {
  if (type.size == 0) co_return;
  for (int i = 0; i < s.remote_size(); ++i) {
    if (counts[i] == 0) continue;
    void* at = const_cast<std::byte*>(element(buf, displs[i], type));
    const auto n = static_cast<std::size_t>(counts[i]);
    if (send)
      s.post_send_across(at, n, type, i);
    else
      s.post_recv_across(at, n, type, i);
  }
  co_await s.wait();
}

/// Gather (`gather`) or scatter across: `all` is the root's buffer of a block of `all_count`
/// elements of `all_type` per rank of the other group, `own` a member's block. Below MPICH's
/// threshold the other group gathers to (or scatters from) its leader, which exchanges all the
/// blocks with the root; above it, each member exchanges its block with the root, which takes them
/// in rank order.
CollTask rooted_blocks(Schedule& s, bool gather, const void* all, std::size_t all_count,
                       const Datatype& all_type_in, const void* own, std::size_t own_count,
                       const Datatype& own_type_in, int root) {
  const Datatype& all_type = s.keep(all_type_in);
  const Datatype& own_type = s.keep(own_type_in);
  if (root == MPI_PROC_NULL) co_return;
  const bool at_root = root == MPI_ROOT;
  const std::size_t count = at_root ? all_count : own_count;
  const Datatype& type = at_root ? all_type : own_type;
  const std::size_t n = count * static_cast<std::size_t>(at_root ? s.remote_size() : s.size());
  const std::size_t limit = gather ? thresholds::kGatherInterShort : thresholds::kScatterInterShort;
  if (n * type.size >= limit) {
    if (!at_root) co_await across(s, gather, own, count, type, root);
    for (int i = 0; at_root && i < s.remote_size(); ++i)
      co_await across(s, !gather, element(all, i * static_cast<MPI_Aint>(count), type), count, type,
                      i);
  } else if (at_root) {
    co_await across(s, !gather, all, n, type, 0);
  } else {
    void* blocks = leads(s) ? s.scratch(n, type) : nullptr;
    if (gather && n > 0) co_await build_gather(s, own, count, type, blocks, count, type, 0);
    if (leads(s)) co_await across(s, gather, blocks, n, type, root);
    if (!gather && n > 0)
      co_await build_scatter(s, blocks, count, type, const_cast<void*>(own), count, type, 0);
  }
}

} // namespace

CollTask build_inter_barrier(Schedule& s) {
  co_await build_barrier(s);
  // A zero-byte broadcast would send nothing: MPICH broadcasts one byte.
  void* b = s.scratch(1, bytes_type());
  co_await bcast_both_ways(s, b, 1, bytes_type(), b, 1, bytes_type());
}

CollTask build_inter_bcast(Schedule& s, void* buf, std::size_t count, const Datatype& type_in,
                           int root) {
  const Datatype& type = s.keep(type_in);
  if (root == MPI_ROOT)
    co_await across(s, true, buf, count, type, 0);
  else if (root != MPI_PROC_NULL)
    co_await bcast_in(s, buf, count, type, root);
}

CollTask build_inter_reduce(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                            const Datatype& type_in, int root) {
  const Datatype& type = s.keep(type_in);
  if (root == MPI_ROOT)
    co_await across(s, false, recvbuf, count, type, 0);
  else if (root != MPI_PROC_NULL)
    co_await reduce_out(s, sendbuf, count, type, root);
}

CollTask build_inter_allreduce(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                               const Datatype& type_in) {
  const Datatype& type = s.keep(type_in);
  if (empty(count, type)) co_return;
  void* acc = leads(s) ? s.scratch(count, type) : nullptr;
  co_await build_reduce(s, sendbuf, acc, count, type, 0);
  if (leads(s)) {
    s.post_send_across(acc, count, type, 0);
    s.post_recv_across(recvbuf, count, type, 0);
    co_await s.wait();
  }
  co_await build_bcast(s, recvbuf, count, type, 0);
}

CollTask build_inter_gather(Schedule& s, const void* sendbuf, std::size_t scount,
                            const Datatype& stype, void* recvbuf, std::size_t rcount,
                            const Datatype& rtype, int root) {
  return rooted_blocks(s, true, recvbuf, rcount, rtype, sendbuf, scount, stype, root);
}

CollTask build_inter_scatter(Schedule& s, const void* sendbuf, std::size_t scount,
                             const Datatype& stype, void* recvbuf, std::size_t rcount,
                             const Datatype& rtype, int root) {
  return rooted_blocks(s, false, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
}

CollTask build_inter_gatherv(Schedule& s, const void* sendbuf, std::size_t scount,
                             const Datatype& stype_in, void* recvbuf, const int* counts,
                             const int* displs, const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  if (root == MPI_ROOT)
    co_await blocks_across(s, false, recvbuf, counts, displs, rtype);
  else if (root != MPI_PROC_NULL)
    co_await across(s, true, sendbuf, scount, stype, root);
}

CollTask build_inter_scatterv(Schedule& s, const void* sendbuf, const int* counts,
                              const int* displs, const Datatype& stype_in, void* recvbuf,
                              std::size_t rcount, const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  if (root == MPI_ROOT)
    co_await blocks_across(s, true, sendbuf, counts, displs, stype);
  else if (root != MPI_PROC_NULL)
    co_await across(s, false, recvbuf, rcount, rtype, root);
}

CollTask build_inter_allgather(Schedule& s, const void* sendbuf, std::size_t scount,
                               const Datatype& stype_in, void* recvbuf, std::size_t rcount,
                               const Datatype& rtype_in) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const std::size_t n = scount * static_cast<std::size_t>(s.size());
  void* mine = leads(s) && !empty(n, stype) ? s.scratch(n, stype) : nullptr;
  if (!empty(n, stype)) co_await build_gather(s, sendbuf, scount, stype, mine, scount, stype, 0);
  co_await bcast_both_ways(s, mine, n, stype, recvbuf,
                           rcount * static_cast<std::size_t>(s.remote_size()), rtype);
}

CollTask build_inter_allgatherv(Schedule& s, const void* sendbuf, std::size_t scount,
                                const Datatype& stype_in, void* recvbuf, const int* counts,
                                const int* displs, const Datatype& rtype_in) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const bool low = s.low_group();
  for (int step = 0; step < 2; ++step) {
    if ((step == 0) != low) {
      if (leads(s)) co_await blocks_across(s, false, recvbuf, counts, displs, rtype);
    } else {
      co_await across(s, true, sendbuf, scount, stype, 0);
    }
  }
  // MPICH broadcasts the blocks as one indexed type; the same bytes, packed in rank order.
  const int p = s.remote_size();
  std::size_t total = 0;
  for (int i = 0; i < p; ++i)
    total += static_cast<std::size_t>(counts[i]) * rtype.size;
  if (total == 0) co_return;
  auto* packed = static_cast<std::byte*>(s.scratch(total, bytes_type()));
  std::size_t at = 0;
  for (int i = 0; i < p; ++i) {
    const std::size_t n = static_cast<std::size_t>(counts[i]);
    if (leads(s)) pack(element(recvbuf, displs[i], rtype), n, rtype, packed + at);
    at += n * rtype.size;
  }
  co_await build_bcast(s, packed, total, bytes_type(), 0);
  if (leads(s)) co_return;
  at = 0;
  for (int i = 0; i < p; ++i) {
    const std::size_t n = static_cast<std::size_t>(counts[i]) * rtype.size;
    unpack(packed + at, n, rtype, element(recvbuf, displs[i], rtype));
    at += n;
  }
}

CollTask build_inter_alltoall(Schedule& s, std::vector<NeighborBlock> sends,
                              std::vector<NeighborBlock> recvs) {
  keep_types(s, sends);
  keep_types(s, recvs);
  const int remote = s.remote_size(), steps = std::max(s.size(), remote);
  for (int i = 0; i < steps; ++i) {
    const int dst = (s.rank() + i) % steps, src = (s.rank() - i + steps) % steps;
    // A rank past the other group's end has no partner this step; MPICH still sends the empty
    // blocks of the others.
    if (dst < remote) {
      const NeighborBlock& b = sends[static_cast<std::size_t>(dst)];
      s.post_send_across(b.buf, b.count, *b.type, dst);
    }
    if (src < remote) {
      const NeighborBlock& b = recvs[static_cast<std::size_t>(src)];
      s.post_recv_across(b.buf, b.count, *b.type, src);
    }
    co_await s.wait();
  }
}

CollTask build_inter_reduce_scatter(Schedule& s, const void* sendbuf, void* recvbuf,
                                    std::vector<std::size_t> counts, const Datatype& type_in) {
  const Datatype& type = s.keep(type_in);
  const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  void* reduced = leads(s) && !empty(total, type) ? s.scratch(total, type) : nullptr;
  const bool low = s.low_group();
  for (int step = 0; step < 2; ++step) {
    if ((step == 0) != low) {
      if (leads(s)) co_await across(s, false, reduced, total, type, 0);
    } else {
      co_await reduce_out(s, sendbuf, total, type, 0);
    }
  }
  std::vector<int> n(counts.size()), displs(counts.size());
  for (std::size_t i = 0, at = 0; i < counts.size(); at += counts[i], ++i) {
    n[i] = static_cast<int>(counts[i]);
    displs[i] = static_cast<int>(at);
  }
  co_await build_scatterv(s, reduced, n.data(), displs.data(), type, recvbuf,
                          counts[static_cast<std::size_t>(s.rank())], type, 0);
}

} // namespace mpilite
