// MPI entry points: the neighbourhood collectives (MPI-3.1 section 7.6) on Cartesian, graph and
// distributed graph communicators, blocking and not. Each lays out one block per slot of the
// caller's neighbourhood and hands them to the one exchange engine (build_neighbor_exchange).
#include <utility>
#include <vector>

#include "api_collective_call.hpp"
#include "collectives.hpp"

using namespace mpilite;

namespace {

/// `bytes` past `base` (no address for empty blocks: their buffers may be null).
void* at(const void* base, MPI_Aint bytes, std::size_t count) {
  auto* b = const_cast<std::byte*>(static_cast<const std::byte*>(base));
  return count > 0 ? b + bytes : b;
}

/// One block per peer in `peers`; `slot(i)` gives slot i's (buffer, count, type).
template <class F> std::vector<NeighborBlock> lay_out(const std::vector<int>& peers, F slot) {
  std::vector<NeighborBlock> out;
  out.reserve(peers.size());
  for (std::size_t i = 0; i < peers.size(); ++i) {
    NeighborBlock b = slot(static_cast<int>(i));
    b.peer = peers[i];
    out.push_back(b);
  }
  return out;
}

/// A neighbourhood collective: its frame (blocking, non-blocking or persistent) and the caller's
/// neighbourhood.
struct NeighborCall {
  CollectiveCall& k;
  Neighborhood n;

  explicit NeighborCall(CollectiveCall& frame) : k(frame) {}

  int in() const { return static_cast<int>(n.sources.size()); }
  int out() const { return static_cast<int>(n.destinations.size()); }

  /// Checks the communicator, which must have a topology, and finds the neighbourhood.
  int begin() {
    if (int e = k.begin()) return e;
    const Comm& cm = k.comm();
    if (!cm.topology || (cm.topology->kind == MPI_DIST_GRAPH && !edges()))
      return k.c.error(cm.handle, MPI_ERR_TOPOLOGY,
                       "{} has no process topology (neighbourhood collectives need a Cartesian, "
                       "graph or distributed graph communicator)",
                       cm.label());
    n = neighborhood_of(*cm.topology, k.rank(), edges());
    return MPI_SUCCESS;
  }

private:
  const DistGraphEdges* edges() const {
    const CommLocal* l = k.c.r.comms.find(k.comm().handle);
    return l ? l->dist_graph.get() : nullptr;
  }

public:
  /// Checks one buffer of `count` elements of `h` per slot (MPI_IN_PLACE is not allowed).
  int uniform(const void* buf, int count, MPI_Datatype h, int slots, const char* what,
              const Datatype*& type) {
    if (int e = k.not_in_place(buf, what)) return e;
    if (int e = k.count(count)) return e;
    if (int e = k.type(h, type)) return e;
    return k.buffer(buf, static_cast<long>(count) * slots, type);
  }

  /// Checks a buffer of counts[i] elements at displs[i] per slot.
  int varying(const void* buf, const int* counts, const void* displs, int slots, const char* what,
              const char* counts_name, const char* displs_name, const Datatype* type) {
    long total;
    if (int e = k.not_in_place(buf, what)) return e;
    if (int e = k.counts(counts, counts_name, total, slots)) return e;
    if (int e = k.displacements(displs, displs_name, total, slots)) return e;
    return k.buffer(buf, total, type);
  }

  /// Checks one type per slot.
  int types(const MPI_Datatype* handles, int slots, const char* what,
            std::vector<const Datatype*>& out) {
    if (!handles && slots > 0)
      return k.c.error(k.comm().handle, MPI_ERR_ARG, "null array of {} ({} entries expected)", what,
                       slots);
    out.resize(static_cast<std::size_t>(slots));
    for (int i = 0; i < slots; ++i)
      if (int e = k.type(handles[i], out[static_cast<std::size_t>(i)])) return e;
    return MPI_SUCCESS;
  }

  int run(std::vector<NeighborBlock> sends, std::vector<NeighborBlock> recvs) {
    // A Cartesian dimension of 2 ranks (or 1), periodic, makes one rank both neighbours: its
    // two blocks must go to the receives MPI's reference (a shift each way) gives them. The
    // block a rank sends up (slot 2d + 1) is what its upper neighbour receives from below
    // (slot 2d), and is sent second, so each dimension's receive from above is posted first.
    if (k.comm().topology->kind == MPI_CART)
      for (std::size_t d = 0; d + 1 < recvs.size(); d += 2)
        std::swap(recvs[d], recvs[d + 1]);
    return k.finish(build_neighbor_exchange(k.schedule(), std::move(sends), std::move(recvs)));
  }
};

/// `count` elements of `type`, `bytes` past `base` (the peer is filled in by lay_out).
NeighborBlock block(const void* base, MPI_Aint bytes, int count, const Datatype* type) {
  const auto n = static_cast<std::size_t>(count);
  return {MPI_PROC_NULL, at(base, bytes, n), n, type};
}

/// Block i of an array of blocks of `count` elements of `type` at `base`.
NeighborBlock nth(const void* base, int i, int count, const Datatype* type) {
  return block(base, type->extent * count * i, count, type);
}

int allgather_call(NeighborCall& x, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const Datatype *st, *rt;
  if (int e = x.begin()) return e;
  if (int e = x.uniform(sendbuf, sendcount, sendtype, 1, "the send buffer", st)) return e;
  if (int e = x.uniform(recvbuf, recvcount, recvtype, x.in(), "the receive buffer", rt)) return e;
  x.k.record("neighbor_allgather", x.in(), x.out(), sendcount, TypeArg{sendtype}, recvcount,
             TypeArg{recvtype});
  return x.run(lay_out(x.n.destinations, [&](int) { return nth(sendbuf, 0, sendcount, st); }),
               lay_out(x.n.sources, [&](int i) { return nth(recvbuf, i, recvcount, rt); }));
}

int allgatherv_call(NeighborCall& x, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype) {
  const Datatype *st, *rt;
  if (int e = x.begin()) return e;
  if (int e = x.uniform(sendbuf, sendcount, sendtype, 1, "the send buffer", st)) return e;
  if (int e = x.k.type(recvtype, rt)) return e;
  if (int e = x.varying(recvbuf, recvcounts, displs, x.in(), "the receive buffer", "recvcounts",
                        "displs", rt))
    return e;
  x.k.record("neighbor_allgatherv", sendcount, TypeArg{sendtype}, IntsArg{x.in(), recvcounts},
             TypeArg{recvtype});
  return x.run(lay_out(x.n.destinations, [&](int) { return nth(sendbuf, 0, sendcount, st); }),
               lay_out(x.n.sources, [&](int i) {
                 return block(recvbuf, rt->extent * displs[i], recvcounts[i], rt);
               }));
}

int alltoall_call(NeighborCall& x, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const Datatype *st, *rt;
  if (int e = x.begin()) return e;
  if (int e = x.uniform(sendbuf, sendcount, sendtype, x.out(), "the send buffer", st)) return e;
  if (int e = x.uniform(recvbuf, recvcount, recvtype, x.in(), "the receive buffer", rt)) return e;
  x.k.record("neighbor_alltoall", x.in(), x.out(), sendcount, TypeArg{sendtype}, recvcount,
             TypeArg{recvtype});
  return x.run(lay_out(x.n.destinations, [&](int i) { return nth(sendbuf, i, sendcount, st); }),
               lay_out(x.n.sources, [&](int i) { return nth(recvbuf, i, recvcount, rt); }));
}

int alltoallv_call(NeighborCall& x, const void* sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int rdispls[], MPI_Datatype recvtype) {
  const Datatype *st, *rt;
  if (int e = x.begin()) return e;
  if (int e = x.k.type(sendtype, st)) return e;
  if (int e = x.varying(sendbuf, sendcounts, sdispls, x.out(), "the send buffer", "sendcounts",
                        "sdispls", st))
    return e;
  if (int e = x.k.type(recvtype, rt)) return e;
  if (int e = x.varying(recvbuf, recvcounts, rdispls, x.in(), "the receive buffer", "recvcounts",
                        "rdispls", rt))
    return e;
  auto slot = [](const void* buf, const int* counts, const int* displs, const Datatype* t) {
    return [=](int i) { return block(buf, t->extent * displs[i], counts[i], t); };
  };
  x.k.record("neighbor_alltoallv", IntsArg{x.out(), sendcounts}, TypeArg{sendtype},
             IntsArg{x.in(), recvcounts}, TypeArg{recvtype});
  return x.run(lay_out(x.n.destinations, slot(sendbuf, sendcounts, sdispls, st)),
               lay_out(x.n.sources, slot(recvbuf, recvcounts, rdispls, rt)));
}

int alltoallw_call(NeighborCall& x, const void* sendbuf, const int sendcounts[],
                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                   const int recvcounts[], const MPI_Aint rdispls[],
                   const MPI_Datatype recvtypes[]) {
  std::vector<const Datatype*> st, rt;
  if (int e = x.begin()) return e;
  if (int e = x.types(sendtypes, x.out(), "sendtypes", st)) return e;
  if (int e = x.varying(sendbuf, sendcounts, sdispls, x.out(), "the send buffer", "sendcounts",
                        "sdispls", absolute_one(st)))
    return e;
  if (int e = x.types(recvtypes, x.in(), "recvtypes", rt)) return e;
  if (int e = x.varying(recvbuf, recvcounts, rdispls, x.in(), "the receive buffer", "recvcounts",
                        "rdispls", absolute_one(rt)))
    return e;
  // Displacements in bytes, one type per slot.
  auto slot = [](const void* buf, const int* counts, const MPI_Aint* displs,
                 const std::vector<const Datatype*>& t) {
    return
        [=, &t](int i) { return block(buf, displs[i], counts[i], t[static_cast<std::size_t>(i)]); };
  };
  x.k.record("neighbor_alltoallw", IntsArg{x.out(), sendcounts}, TypesArg{x.out(), sendtypes},
             IntsArg{x.in(), recvcounts}, TypesArg{x.in(), recvtypes});
  return x.run(lay_out(x.n.destinations, slot(sendbuf, sendcounts, sdispls, st)),
               lay_out(x.n.sources, slot(recvbuf, recvcounts, rdispls, rt)));
}

} // namespace

extern "C" {

int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CollectiveCall k("MPI_Neighbor_allgather", comm);
  NeighborCall x(k);
  return allgather_call(x, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}
MPISIM_WEAK_ALIAS(Neighbor_allgather)

int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  CollectiveCall k("MPI_Ineighbor_allgather", comm, request);
  NeighborCall x(k);
  return allgather_call(x, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}
MPISIM_WEAK_ALIAS(Ineighbor_allgather)

int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm) {
  CollectiveCall k("MPI_Neighbor_allgatherv", comm);
  NeighborCall x(k);
  return allgatherv_call(x, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
}
MPISIM_WEAK_ALIAS(Neighbor_allgatherv)

int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Ineighbor_allgatherv", comm, request);
  NeighborCall x(k);
  return allgatherv_call(x, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
}
MPISIM_WEAK_ALIAS(Ineighbor_allgatherv)

int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CollectiveCall k("MPI_Neighbor_alltoall", comm);
  NeighborCall x(k);
  return alltoall_call(x, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}
MPISIM_WEAK_ALIAS(Neighbor_alltoall)

int PMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  CollectiveCall k("MPI_Ineighbor_alltoall", comm, request);
  NeighborCall x(k);
  return alltoall_call(x, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}
MPISIM_WEAK_ALIAS(Ineighbor_alltoall)

int PMPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CollectiveCall k("MPI_Neighbor_alltoallv", comm);
  NeighborCall x(k);
  return alltoallv_call(x, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype);
}
MPISIM_WEAK_ALIAS(Neighbor_alltoallv)

int PMPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  CollectiveCall k("MPI_Ineighbor_alltoallv", comm, request);
  NeighborCall x(k);
  return alltoallv_call(x, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype);
}
MPISIM_WEAK_ALIAS(Ineighbor_alltoallv)

int PMPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            MPI_Comm comm) {
  CollectiveCall k("MPI_Neighbor_alltoallw", comm);
  NeighborCall x(k);
  return alltoallw_call(x, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes);
}
MPISIM_WEAK_ALIAS(Neighbor_alltoallw)

int PMPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Ineighbor_alltoallw", comm, request);
  NeighborCall x(k);
  return alltoallw_call(x, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes);
}
MPISIM_WEAK_ALIAS(Ineighbor_alltoallw)

// Persistent forms (MPI-4.0): the same call, started by each MPI_Start.

int PMPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Neighbor_allgather_init", comm, info, request, [=](CollectiveCall& k) {
        NeighborCall x(k);
        return allgather_call(x, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
      });
}
MPISIM_WEAK_ALIAS(Neighbor_allgather_init)

int PMPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) {
  return init_persistent_collective("MPI_Neighbor_allgatherv_init", comm, info, request,
                                    [=](CollectiveCall& k) {
                                      NeighborCall x(k);
                                      return allgatherv_call(x, sendbuf, sendcount, sendtype,
                                                             recvbuf, recvcounts, displs, recvtype);
                                    });
}
MPISIM_WEAK_ALIAS(Neighbor_allgatherv_init)

int PMPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Neighbor_alltoall_init", comm, info, request, [=](CollectiveCall& k) {
        NeighborCall x(k);
        return alltoall_call(x, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
      });
}
MPISIM_WEAK_ALIAS(Neighbor_alltoall_init)

int PMPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Neighbor_alltoallv_init", comm, info, request, [=](CollectiveCall& k) {
        NeighborCall x(k);
        return alltoallv_call(x, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype);
      });
}
MPISIM_WEAK_ALIAS(Neighbor_alltoallv_init)

int PMPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Neighbor_alltoallw_init", comm, info, request, [=](CollectiveCall& k) {
        NeighborCall x(k);
        return alltoallw_call(x, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                              rdispls, recvtypes);
      });
}
MPISIM_WEAK_ALIAS(Neighbor_alltoallw_init)

} // extern "C"
