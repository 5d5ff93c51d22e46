// MPI entry points: the collectives that move data without reducing it (gather, scatter,
// allgather, alltoall and their v/w forms), blocking and not. As in api_collective.cpp, one
// function per collective checks, records and builds; the entry points only say how it completes.
#include <vector>

#include "api_collective_call.hpp"
#include "collectives.hpp"
#include "collectives_inter.hpp"

using namespace mpilite;

namespace {

/// The type of a collective's data: the first checked of the two (MPI_BYTE when neither was, at
/// the members of an intercommunicator root's group that take no part).
const Datatype& either(const Datatype* a, const Datatype* b) {
  return a ? *a : b ? *b : *builtin_datatype(MPI_BYTE);
}

/// A (buffer, count, type) argument triple whose type is checked.
int checked(CollectiveCall& k, const void* buf, int count, MPI_Datatype datatype,
            const Datatype*& type, long buffer_count) {
  if (int e = k.count(count)) return e;
  if (int e = k.type(datatype, type)) return e;
  return k.buffer(buf, buffer_count, type);
}

/// Counts and displacements of a v-collective, and its type; `what` names the arrays.
int checked_v(CollectiveCall& k, const void* buf, const int* counts, const int* displs,
              MPI_Datatype datatype, const Datatype*& type, const char* counts_name,
              const char* displs_name) {
  long total;
  if (int e = k.counts(counts, counts_name, total)) return e; // one per block
  if (int e = k.displacements(displs, displs_name, total)) return e;
  if (int e = k.type(datatype, type)) return e;
  return k.buffer(buf, total, type);
}

/// The rank's own block of a rooted collective (gather's send side, scatter's receive side):
/// MPI_IN_PLACE only at the root; otherwise checked, and at the root not the root's buffer.
int own_block(CollectiveCall& k, bool is_root, const void* own, int count, MPI_Datatype datatype,
              const Datatype*& type, const void* root_buffer) {
  if (own == MPI_IN_PLACE) {
    if (is_root) return MPI_SUCCESS;
    return k.c.error(k.comm().handle, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  }
  if (int e = checked(k, own, count, datatype, type, count)) return e;
  return is_root ? k.not_aliased(own, root_buffer, count > 0) : MPI_SUCCESS;
}

int gather_call(CollectiveCall& k, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                void* recvbuf, int recvcount, MPI_Datatype recvtype, int root) {
  const Datatype *stype = nullptr, *rtype = nullptr;
  CollectiveCall::Roles is;
  if (int e = k.begin(true)) return e;
  if (int e = k.roles(root, is)) return e;
  if (is.all) {
    if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
    if (int e = checked(k, recvbuf, recvcount, recvtype, rtype,
                        static_cast<long>(recvcount) * k.blocks()))
      return e;
  }
  if (is.own)
    if (int e = own_block(k, is.all, sendbuf, sendcount, sendtype, stype, recvbuf)) return e;
  k.record("gather", in_place_flag(sendbuf), sendcount, TypeArg{sendtype}, recvcount,
           TypeArg{recvtype}, root);
  const auto build = k.inter() ? build_inter_gather : build_gather;
  return k.finish(build(k.schedule(), sendbuf, static_cast<std::size_t>(sendcount),
                        either(stype, rtype), recvbuf, static_cast<std::size_t>(recvcount),
                        either(rtype, stype), root));
}

int gatherv_call(CollectiveCall& k, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                 void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype,
                 int root) {
  const Datatype *stype = nullptr, *rtype = nullptr;
  CollectiveCall::Roles is;
  if (int e = k.begin(true)) return e;
  if (int e = k.roles(root, is)) return e;
  if (is.all) {
    if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
    if (int e = checked_v(k, recvbuf, recvcounts, displs, recvtype, rtype, "recvcounts", "displs"))
      return e;
  }
  if (is.own)
    if (int e = own_block(k, is.all, sendbuf, sendcount, sendtype, stype, recvbuf)) return e;
  k.record("gatherv", in_place_flag(sendbuf), sendcount, TypeArg{sendtype},
           CountsArg{k.comm().handle, k.is_root(root) ? recvcounts : nullptr}, TypeArg{recvtype},
           root);
  const auto build = k.inter() ? build_inter_gatherv : build_gatherv;
  return k.finish(build(k.schedule(), sendbuf, static_cast<std::size_t>(sendcount),
                        either(stype, rtype), recvbuf, recvcounts, displs, either(rtype, stype),
                        root));
}

int scatter_call(CollectiveCall& k, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root) {
  const Datatype *stype = nullptr, *rtype = nullptr;
  CollectiveCall::Roles is;
  if (int e = k.begin(true)) return e;
  if (int e = k.roles(root, is)) return e;
  if (is.all) {
    if (int e = k.not_in_place(sendbuf, "the send buffer")) return e;
    if (int e = checked(k, sendbuf, sendcount, sendtype, stype,
                        static_cast<long>(sendcount) * k.blocks()))
      return e;
  }
  if (is.own)
    if (int e = own_block(k, is.all, recvbuf, recvcount, recvtype, rtype, sendbuf)) return e;
  k.record("scatter", in_place_flag(recvbuf), sendcount, TypeArg{sendtype}, recvcount,
           TypeArg{recvtype}, root);
  const auto build = k.inter() ? build_inter_scatter : build_scatter;
  return k.finish(build(k.schedule(), sendbuf, static_cast<std::size_t>(sendcount),
                        either(stype, rtype), recvbuf, static_cast<std::size_t>(recvcount),
                        either(rtype, stype), root));
}

int scatterv_call(CollectiveCall& k, const void* sendbuf, const int* sendcounts, const int* displs,
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root) {
  const Datatype *stype = nullptr, *rtype = nullptr;
  CollectiveCall::Roles is;
  if (int e = k.begin(true)) return e;
  if (int e = k.roles(root, is)) return e;
  if (is.all) {
    if (int e = k.not_in_place(sendbuf, "the send buffer")) return e;
    if (int e = checked_v(k, sendbuf, sendcounts, displs, sendtype, stype, "sendcounts", "displs"))
      return e;
  }
  if (is.own)
    if (int e = own_block(k, is.all, recvbuf, recvcount, recvtype, rtype, sendbuf)) return e;
  k.record("scatterv", in_place_flag(recvbuf),
           CountsArg{k.comm().handle, k.is_root(root) ? sendcounts : nullptr}, TypeArg{sendtype},
           recvcount, TypeArg{recvtype}, root);
  const auto build = k.inter() ? build_inter_scatterv : build_scatterv;
  return k.finish(build(k.schedule(), sendbuf, sendcounts, displs, either(stype, rtype), recvbuf,
                        static_cast<std::size_t>(recvcount), either(rtype, stype), root));
}

/// The send side of allgather(v) and alltoall: MPI_IN_PLACE allowed (on an intracommunicator),
/// then nothing to check.
int send_side(CollectiveCall& k, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              const Datatype*& stype, long buffer_count) {
  if (int e = k.no_in_place_on_inter(sendbuf)) return e;
  if (sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  return checked(k, sendbuf, sendcount, sendtype, stype, buffer_count);
}

int allgather_call(CollectiveCall& k, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const Datatype *stype = nullptr, *rtype = nullptr;
  if (int e = k.begin(true)) return e;
  if (int e = send_side(k, sendbuf, sendcount, sendtype, stype, sendcount)) return e;
  if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
  if (int e = checked(k, recvbuf, recvcount, recvtype, rtype,
                      static_cast<long>(recvcount) * k.blocks()))
    return e;
  if (int e = k.not_aliased(sendbuf, recvbuf, sendcount > 0)) return e;
  k.record("allgather", in_place_flag(sendbuf), sendcount, TypeArg{sendtype}, recvcount,
           TypeArg{recvtype});
  const auto build = k.inter() ? build_inter_allgather : build_allgather;
  return k.finish(build(k.schedule(), sendbuf, static_cast<std::size_t>(sendcount),
                        either(stype, rtype), recvbuf, static_cast<std::size_t>(recvcount),
                        *rtype));
}

int allgatherv_call(CollectiveCall& k, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, const int* recvcounts, const int* displs,
                    MPI_Datatype recvtype) {
  const Datatype *stype = nullptr, *rtype = nullptr;
  if (int e = k.begin(true)) return e;
  if (int e = send_side(k, sendbuf, sendcount, sendtype, stype, sendcount)) return e;
  if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
  if (int e = checked_v(k, recvbuf, recvcounts, displs, recvtype, rtype, "recvcounts", "displs"))
    return e;
  if (int e = k.not_aliased(sendbuf, recvbuf, sendcount > 0)) return e;
  k.record("allgatherv", in_place_flag(sendbuf), sendcount, TypeArg{sendtype},
           CountsArg{k.comm().handle, recvcounts}, TypeArg{recvtype});
  const auto build = k.inter() ? build_inter_allgatherv : build_allgatherv;
  return k.finish(build(k.schedule(), sendbuf, static_cast<std::size_t>(sendcount),
                        either(stype, rtype), recvbuf, recvcounts, displs, *rtype));
}

/// The blocks of an alltoall on an intercommunicator, block(i) for rank i of the remote group.
template <class Block>
std::vector<NeighborBlock> remote_blocks(const CollectiveCall& k, Block block) {
  std::vector<NeighborBlock> out;
  out.reserve(static_cast<std::size_t>(k.blocks()));
  for (int i = 0; i < k.blocks(); ++i)
    out.push_back(block(i));
  return out;
}

/// `count` elements of `type` at `offset` bytes from `buf`.
NeighborBlock block_at(const void* buf, MPI_Aint offset, int count, const Datatype* type) {
  return {MPI_PROC_NULL, static_cast<std::byte*>(const_cast<void*>(buf)) + offset,
          static_cast<std::size_t>(count), type};
}

int alltoall_call(CollectiveCall& k, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const Datatype *stype = nullptr, *rtype = nullptr;
  if (int e = k.begin(true)) return e;
  const long size = k.blocks();
  if (int e = send_side(k, sendbuf, sendcount, sendtype, stype, sendcount * size)) return e;
  if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
  if (int e = checked(k, recvbuf, recvcount, recvtype, rtype, recvcount * size)) return e;
  if (int e = k.not_aliased(sendbuf, recvbuf, sendcount > 0)) return e;
  k.record("alltoall", in_place_flag(sendbuf), sendcount, TypeArg{sendtype}, recvcount,
           TypeArg{recvtype});
  if (k.inter())
    return k.finish(build_inter_alltoall(
        k.schedule(),
        remote_blocks(k,
                      [&](int i) {
                        return block_at(sendbuf, MPI_Aint{i} * sendcount * stype->extent, sendcount,
                                        stype);
                      }),
        remote_blocks(k, [&](int i) {
          return block_at(recvbuf, MPI_Aint{i} * recvcount * rtype->extent, recvcount, rtype);
        })));
  return k.finish(build_alltoall(k.schedule(), sendbuf, static_cast<std::size_t>(sendcount),
                                 stype ? *stype : *rtype, recvbuf,
                                 static_cast<std::size_t>(recvcount), *rtype));
}

int alltoallv_call(CollectiveCall& k, const void* sendbuf, const int* sendcounts,
                   const int* sdispls, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                   const int* rdispls, MPI_Datatype recvtype) {
  const Datatype *stype = nullptr, *rtype = nullptr;
  if (int e = k.begin(true)) return e;
  if (int e = k.no_in_place_on_inter(sendbuf)) return e;
  if (sendbuf != MPI_IN_PLACE)
    if (int e =
            checked_v(k, sendbuf, sendcounts, sdispls, sendtype, stype, "sendcounts", "sdispls"))
      return e;
  if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
  if (int e = checked_v(k, recvbuf, recvcounts, rdispls, recvtype, rtype, "recvcounts", "rdispls"))
    return e;
  if (int e = k.not_aliased(sendbuf, recvbuf, true)) return e;
  k.record("alltoallv", in_place_flag(sendbuf), CountsArg{k.comm().handle, sendcounts},
           TypeArg{sendtype}, CountsArg{k.comm().handle, recvcounts}, TypeArg{recvtype});
  if (k.inter())
    return k.finish(build_inter_alltoall(
        k.schedule(),
        remote_blocks(k,
                      [&](int i) {
                        return block_at(sendbuf, sdispls[i] * stype->extent, sendcounts[i], stype);
                      }),
        remote_blocks(k, [&](int i) {
          return block_at(recvbuf, rdispls[i] * rtype->extent, recvcounts[i], rtype);
        })));
  return k.finish(build_alltoallv(k.schedule(), sendbuf, sendcounts, sdispls,
                                  stype ? *stype : *rtype, recvbuf, recvcounts, rdispls, *rtype));
}

/// The per-rank types of Alltoallw (each checked).
int checked_types(CollectiveCall& k, const MPI_Datatype* handles, const char* what,
                  std::vector<const Datatype*>& out) {
  const int p = k.blocks();
  if (!handles)
    return k.c.error(k.comm().handle, MPI_ERR_ARG, "null array of {} ({} entries expected)", what,
                     p);
  out.resize(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i)
    if (int e = k.type(handles[i], out[static_cast<std::size_t>(i)])) return e;
  return MPI_SUCCESS;
}

int alltoallw_call(CollectiveCall& k, const void* sendbuf, const int* sendcounts,
                   const int* sdispls, const MPI_Datatype* sendtypes, void* recvbuf,
                   const int* recvcounts, const int* rdispls, const MPI_Datatype* recvtypes) {
  std::vector<const Datatype*> stypes, rtypes;
  long total;
  if (int e = k.begin(true)) return e;
  if (int e = k.no_in_place_on_inter(sendbuf)) return e;
  if (sendbuf != MPI_IN_PLACE) {
    if (int e = k.counts(sendcounts, "sendcounts", total)) return e;
    if (int e = k.displacements(sdispls, "sdispls", total)) return e;
    if (int e = checked_types(k, sendtypes, "sendtypes", stypes)) return e;
    if (int e = k.buffer(sendbuf, total, absolute_one(stypes))) return e;
  }
  if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
  if (int e = k.counts(recvcounts, "recvcounts", total)) return e;
  if (int e = k.displacements(rdispls, "rdispls", total)) return e;
  if (int e = checked_types(k, recvtypes, "recvtypes", rtypes)) return e;
  if (int e = k.buffer(recvbuf, total, absolute_one(rtypes))) return e;
  if (int e = k.not_aliased(sendbuf, recvbuf, true)) return e;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  k.record("alltoallw", in_place_flag(sendbuf),
           CountsArg{k.comm().handle, in_place ? nullptr : sendcounts},
           TypesArg{in_place ? 0 : k.blocks(), sendtypes}, CountsArg{k.comm().handle, recvcounts},
           TypesArg{k.blocks(), recvtypes});
  if (k.inter()) {
    auto at = [](const std::vector<const Datatype*>& types, int i) {
      return types[static_cast<std::size_t>(i)];
    };
    return k.finish(build_inter_alltoall(
        k.schedule(),
        remote_blocks(
            k, [&](int i) { return block_at(sendbuf, sdispls[i], sendcounts[i], at(stypes, i)); }),
        remote_blocks(k, [&](int i) {
          return block_at(recvbuf, rdispls[i], recvcounts[i], at(rtypes, i));
        })));
  }
  return k.finish(build_alltoallw(k.schedule(), sendbuf, sendcounts, sdispls, std::move(stypes),
                                  recvbuf, recvcounts, rdispls, std::move(rtypes)));
}

} // namespace

extern "C" {

int PMPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CollectiveCall k("MPI_Gather", comm);
  return gather_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
}
MPISIM_WEAK_ALIAS(Gather)

int PMPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  CollectiveCall k("MPI_Igather", comm, request);
  return gather_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
}
MPISIM_WEAK_ALIAS(Igather)

int PMPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
  CollectiveCall k("MPI_Gatherv", comm);
  return gatherv_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
}
MPISIM_WEAK_ALIAS(Gatherv)

int PMPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Igatherv", comm, request);
  return gatherv_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
}
MPISIM_WEAK_ALIAS(Igatherv)

int PMPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CollectiveCall k("MPI_Scatter", comm);
  return scatter_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
}
MPISIM_WEAK_ALIAS(Scatter)

int PMPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request* request) {
  CollectiveCall k("MPI_Iscatter", comm, request);
  return scatter_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
}
MPISIM_WEAK_ALIAS(Iscatter)

int PMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm) {
  CollectiveCall k("MPI_Scatterv", comm);
  return scatterv_call(k, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                       root);
}
MPISIM_WEAK_ALIAS(Scatterv)

int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Iscatterv", comm, request);
  return scatterv_call(k, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                       root);
}
MPISIM_WEAK_ALIAS(Iscatterv)

int PMPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CollectiveCall k("MPI_Allgather", comm);
  return allgather_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}
MPISIM_WEAK_ALIAS(Allgather)

int PMPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Iallgather", comm, request);
  return allgather_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}
MPISIM_WEAK_ALIAS(Iallgather)

int PMPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm) {
  CollectiveCall k("MPI_Allgatherv", comm);
  return allgatherv_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
}
MPISIM_WEAK_ALIAS(Allgatherv)

int PMPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Iallgatherv", comm, request);
  return allgatherv_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
}
MPISIM_WEAK_ALIAS(Iallgatherv)

int PMPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CollectiveCall k("MPI_Alltoall", comm);
  return alltoall_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}
MPISIM_WEAK_ALIAS(Alltoall)

int PMPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Ialltoall", comm, request);
  return alltoall_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}
MPISIM_WEAK_ALIAS(Ialltoall)

int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CollectiveCall k("MPI_Alltoallv", comm);
  return alltoallv_call(k, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype);
}
MPISIM_WEAK_ALIAS(Alltoallv)

int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request* request) {
  CollectiveCall k("MPI_Ialltoallv", comm, request);
  return alltoallv_call(k, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype);
}
MPISIM_WEAK_ALIAS(Ialltoallv)

int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CollectiveCall k("MPI_Alltoallw", comm);
  return alltoallw_call(k, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes);
}
MPISIM_WEAK_ALIAS(Alltoallw)

int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request* request) {
  CollectiveCall k("MPI_Ialltoallw", comm, request);
  return alltoallw_call(k, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes);
}
MPISIM_WEAK_ALIAS(Ialltoallw)

// Persistent forms (MPI-4.0): the same call, started by each MPI_Start.

int PMPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
  return init_persistent_collective("MPI_Gather_init", comm, info, request, [=](CollectiveCall& k) {
    return gather_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}
MPISIM_WEAK_ALIAS(Gather_init)

int PMPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_persistent_collective("MPI_Gatherv_init", comm, info, request,
                                    [=](CollectiveCall& k) {
                                      return gatherv_call(k, sendbuf, sendcount, sendtype, recvbuf,
                                                          recvcounts, displs, recvtype, root);
                                    });
}
MPISIM_WEAK_ALIAS(Gatherv_init)

int PMPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Scatter_init", comm, info, request, [=](CollectiveCall& k) {
        return scatter_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
      });
}
MPISIM_WEAK_ALIAS(Scatter_init)

int PMPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_persistent_collective("MPI_Scatterv_init", comm, info, request,
                                    [=](CollectiveCall& k) {
                                      return scatterv_call(k, sendbuf, sendcounts, displs, sendtype,
                                                           recvbuf, recvcount, recvtype, root);
                                    });
}
MPISIM_WEAK_ALIAS(Scatterv_init)

int PMPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Allgather_init", comm, info, request, [=](CollectiveCall& k) {
        return allgather_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
      });
}
MPISIM_WEAK_ALIAS(Allgather_init)

int PMPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_persistent_collective("MPI_Allgatherv_init", comm, info, request,
                                    [=](CollectiveCall& k) {
                                      return allgatherv_call(k, sendbuf, sendcount, sendtype,
                                                             recvbuf, recvcounts, displs, recvtype);
                                    });
}
MPISIM_WEAK_ALIAS(Allgatherv_init)

int PMPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Alltoall_init", comm, info, request, [=](CollectiveCall& k) {
        return alltoall_call(k, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
      });
}
MPISIM_WEAK_ALIAS(Alltoall_init)

int PMPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Alltoallv_init", comm, info, request, [=](CollectiveCall& k) {
        return alltoallv_call(k, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype);
      });
}
MPISIM_WEAK_ALIAS(Alltoallv_init)

int PMPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Alltoallw_init", comm, info, request, [=](CollectiveCall& k) {
        return alltoallw_call(k, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                              rdispls, recvtypes);
      });
}
MPISIM_WEAK_ALIAS(Alltoallw_init)

} // extern "C"
