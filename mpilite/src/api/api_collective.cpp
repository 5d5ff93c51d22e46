// MPI entry points: barrier, broadcast and the reducing collectives, blocking and not. Each
// collective has one function that checks its arguments, records them and builds its schedule;
// the blocking entry point runs it to completion, the non-blocking one returns its request.
#include <vector>

#include "api_collective_call.hpp"
#include "collectives.hpp"
#include "collectives_inter.hpp"

using namespace mpilite;

namespace {

int barrier_call(CollectiveCall& k) {
  if (int e = k.begin(true)) return e;
  k.record("barrier");
  return k.finish(k.inter() ? build_inter_barrier(k.schedule()) : build_barrier(k.schedule()));
}

int bcast_call(CollectiveCall& k, void* buffer, int count, MPI_Datatype datatype, int root) {
  const Datatype* type;
  if (int e = k.begin(true)) return e;
  if (int e = k.count(count)) return e;
  if (int e = k.type(datatype, type)) return e;
  if (int e = k.inter() ? k.inter_root(root) : k.root(root)) return e;
  if (int e = k.not_in_place(buffer, "the buffer of MPI_Bcast")) return e;
  // The other members of an intercommunicator root's group pass nothing MPI reads.
  if (!k.inter() || root != MPI_PROC_NULL)
    if (int e = k.buffer(buffer, count, type)) return e;
  k.record("bcast", count, TypeArg{datatype}, root);
  const auto build = k.inter() ? build_inter_bcast : build_bcast;
  return k.finish(build(k.schedule(), buffer, static_cast<std::size_t>(count), *type, root));
}

/// Checks shared by the reductions: count, type, op; and the receive buffer is not in place.
int reduction_args(CollectiveCall& k, int count, MPI_Datatype datatype, MPI_Op op,
                   const Datatype*& type, const Op*& o, bool inter_ok = false) {
  if (int e = k.begin(inter_ok)) return e;
  if (int e = k.count(count)) return e;
  if (int e = k.type(datatype, type)) return e;
  return k.op(op, *type, o);
}

int reduce_call(CollectiveCall& k, const void* sendbuf, void* recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root) {
  const Datatype* type;
  const Op* o;
  CollectiveCall::Roles is;
  if (int e = reduction_args(k, count, datatype, op, type, o, true)) return e;
  if (int e = k.roles(root, is)) return e;
  if (is.own) {
    if (int e = k.no_in_place_on_inter(sendbuf)) return e;
    if (!is.all && sendbuf == MPI_IN_PLACE)
      return k.c.error(k.comm().handle, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
    if (int e = k.buffer(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count)) return e;
  }
  if (is.all) {
    if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
    if (int e = k.buffer(recvbuf, count)) return e;
    if (int e = k.not_aliased(sendbuf, recvbuf, is.own && count > 0)) return e;
  }
  k.record("reduce", in_place_flag(sendbuf), count, TypeArg{datatype}, OpArg{op}, root);
  const auto build = k.inter() ? build_inter_reduce : build_reduce;
  return k.finish(
      build(k.schedule(), sendbuf, recvbuf, static_cast<std::size_t>(count), *type, root));
}

/// Allreduce, Scan and Exscan take the same arguments.
enum class AllKind { Allreduce, Scan, Exscan };

/// The name `kind` is recorded under.
const char* recorded_name(AllKind kind) {
  switch (kind) {
  case AllKind::Allreduce:
    return "allreduce";
  case AllKind::Scan:
    return "scan";
  case AllKind::Exscan:
    break;
  }
  return "exscan";
}

int all_call(CollectiveCall& k, AllKind kind, const void* sendbuf, void* recvbuf, int count,
             MPI_Datatype datatype, MPI_Op op) {
  const Datatype* type;
  const Op* o;
  if (int e = reduction_args(k, count, datatype, op, type, o, kind == AllKind::Allreduce)) return e;
  if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
  if (int e = k.buffer(recvbuf, count)) return e;
  if (int e = k.no_in_place_on_inter(sendbuf)) return e;
  if (int e = k.buffer(sendbuf, count)) return e;
  if (int e = k.not_aliased(sendbuf, recvbuf, count > 0)) return e;
  k.record(recorded_name(kind), in_place_flag(sendbuf), count, TypeArg{datatype}, OpArg{op});
  const auto n = static_cast<std::size_t>(count);
  if (k.inter()) return k.finish(build_inter_allreduce(k.schedule(), sendbuf, recvbuf, n, *type));
  switch (kind) {
  case AllKind::Allreduce:
    return k.finish(build_allreduce(k.schedule(), sendbuf, recvbuf, n, *type));
  case AllKind::Scan:
    return k.finish(build_scan(k.schedule(), sendbuf, recvbuf, n, *type));
  case AllKind::Exscan:
    break;
  }
  return k.finish(build_exscan(k.schedule(), sendbuf, recvbuf, n, *type));
}

/// Which of Reduce_scatter and Reduce_scatter_block a call is: each has its own record, and a null
/// `counts` does not tell them apart (MPI_Reduce_scatter's runs as a block of 0).
enum class ScatterKind { PerRank, Block };

/// Reduce_scatter (counts per rank) and Reduce_scatter_block (`block` for every rank, when
/// `counts` is null).
int reduce_scatter_call(CollectiveCall& k, ScatterKind kind, const void* sendbuf, void* recvbuf,
                        const int* counts, int block, MPI_Datatype datatype, MPI_Op op) {
  const Datatype* type;
  const Op* o;
  const bool per_rank = kind == ScatterKind::PerRank;
  if (int e = reduction_args(k, per_rank ? 0 : block, datatype, op, type, o, true)) return e;
  // On an intercommunicator too, one count per rank of the caller's group (which receives).
  const int p = k.comm().size;
  std::vector<std::size_t> n(static_cast<std::size_t>(p), static_cast<std::size_t>(block));
  long total = static_cast<long>(block) * p;
  if (per_rank) { // a null array is an error, not a block of 0
    if (int e = k.counts(counts, "recvcounts", total, p)) return e;
    for (int i = 0; i < p; ++i)
      n[static_cast<std::size_t>(i)] = static_cast<std::size_t>(counts[i]);
  }
  const long mine = static_cast<long>(n[static_cast<std::size_t>(k.rank())]);
  if (int e = k.not_in_place(recvbuf, "the receive buffer")) return e;
  if (int e = k.no_in_place_on_inter(sendbuf)) return e;
  if (int e = k.buffer(recvbuf, sendbuf == MPI_IN_PLACE ? total : mine)) return e;
  if (int e = k.buffer(sendbuf, total)) return e;
  if (int e = k.not_aliased(sendbuf, recvbuf, total > 0)) return e;
  if (per_rank)
    k.record("reduce_scatter", in_place_flag(sendbuf), IntsArg{p, counts}, TypeArg{datatype},
             OpArg{op});
  else
    k.record("reduce_scatter_block", in_place_flag(sendbuf), block, TypeArg{datatype}, OpArg{op});
  const auto build = k.inter() ? build_inter_reduce_scatter : build_reduce_scatter;
  return k.finish(build(k.schedule(), sendbuf, recvbuf, std::move(n), *type));
}

/// MPI_Allreduce_init, MPI_Scan_init and MPI_Exscan_init.
int all_init(const char* call, AllKind kind, const void* sendbuf, void* recvbuf, int count,
             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_persistent_collective(call, comm, info, request, [=](CollectiveCall& k) {
    return all_call(k, kind, sendbuf, recvbuf, count, datatype, op);
  });
}

} // namespace

extern "C" {

int PMPI_Barrier(MPI_Comm comm) {
  CollectiveCall k("MPI_Barrier", comm);
  return barrier_call(k);
}
MPISIM_WEAK_ALIAS(Barrier)

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Ibarrier", comm, request);
  return barrier_call(k);
}
MPISIM_WEAK_ALIAS(Ibarrier)

int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  CollectiveCall k("MPI_Bcast", comm);
  return bcast_call(k, buffer, count, datatype, root);
}
MPISIM_WEAK_ALIAS(Bcast)

int PMPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request* request) {
  CollectiveCall k("MPI_Ibcast", comm, request);
  return bcast_call(k, buffer, count, datatype, root);
}
MPISIM_WEAK_ALIAS(Ibcast)

int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm) {
  CollectiveCall k("MPI_Reduce", comm);
  return reduce_call(k, sendbuf, recvbuf, count, datatype, op, root);
}
MPISIM_WEAK_ALIAS(Reduce)

int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Ireduce", comm, request);
  return reduce_call(k, sendbuf, recvbuf, count, datatype, op, root);
}
MPISIM_WEAK_ALIAS(Ireduce)

int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  CollectiveCall k("MPI_Allreduce", comm);
  return all_call(k, AllKind::Allreduce, sendbuf, recvbuf, count, datatype, op);
}
MPISIM_WEAK_ALIAS(Allreduce)

int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Iallreduce", comm, request);
  return all_call(k, AllKind::Allreduce, sendbuf, recvbuf, count, datatype, op);
}
MPISIM_WEAK_ALIAS(Iallreduce)

int PMPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm) {
  CollectiveCall k("MPI_Scan", comm);
  return all_call(k, AllKind::Scan, sendbuf, recvbuf, count, datatype, op);
}
MPISIM_WEAK_ALIAS(Scan)

int PMPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Iscan", comm, request);
  return all_call(k, AllKind::Scan, sendbuf, recvbuf, count, datatype, op);
}
MPISIM_WEAK_ALIAS(Iscan)

int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm) {
  CollectiveCall k("MPI_Exscan", comm);
  return all_call(k, AllKind::Exscan, sendbuf, recvbuf, count, datatype, op);
}
MPISIM_WEAK_ALIAS(Exscan)

int PMPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Iexscan", comm, request);
  return all_call(k, AllKind::Exscan, sendbuf, recvbuf, count, datatype, op);
}
MPISIM_WEAK_ALIAS(Iexscan)

int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  CollectiveCall k("MPI_Reduce_scatter", comm);
  return reduce_scatter_call(k, ScatterKind::PerRank, sendbuf, recvbuf, recvcounts, 0, datatype,
                             op);
}
MPISIM_WEAK_ALIAS(Reduce_scatter)

int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  CollectiveCall k("MPI_Ireduce_scatter", comm, request);
  return reduce_scatter_call(k, ScatterKind::PerRank, sendbuf, recvbuf, recvcounts, 0, datatype,
                             op);
}
MPISIM_WEAK_ALIAS(Ireduce_scatter)

int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  CollectiveCall k("MPI_Reduce_scatter_block", comm);
  return reduce_scatter_call(k, ScatterKind::Block, sendbuf, recvbuf, nullptr, recvcount, datatype,
                             op);
}
MPISIM_WEAK_ALIAS(Reduce_scatter_block)

int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request* request) {
  CollectiveCall k("MPI_Ireduce_scatter_block", comm, request);
  return reduce_scatter_call(k, ScatterKind::Block, sendbuf, recvbuf, nullptr, recvcount, datatype,
                             op);
}
MPISIM_WEAK_ALIAS(Ireduce_scatter_block)

// Persistent forms (MPI-4.0): the same call, started by each MPI_Start.

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_persistent_collective("MPI_Barrier_init", comm, info, request,
                                    [=](CollectiveCall& k) { return barrier_call(k); });
}
MPISIM_WEAK_ALIAS(Barrier_init)

int PMPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request) {
  return init_persistent_collective("MPI_Bcast_init", comm, info, request, [=](CollectiveCall& k) {
    return bcast_call(k, buffer, count, datatype, root);
  });
}
MPISIM_WEAK_ALIAS(Bcast_init)

int PMPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init_persistent_collective("MPI_Reduce_init", comm, info, request, [=](CollectiveCall& k) {
    return reduce_call(k, sendbuf, recvbuf, count, datatype, op, root);
  });
}
MPISIM_WEAK_ALIAS(Reduce_init)

int PMPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return all_init("MPI_Allreduce_init", AllKind::Allreduce, sendbuf, recvbuf, count, datatype, op,
                  comm, info, request);
}
MPISIM_WEAK_ALIAS(Allreduce_init)

int PMPI_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return all_init("MPI_Scan_init", AllKind::Scan, sendbuf, recvbuf, count, datatype, op, comm, info,
                  request);
}
MPISIM_WEAK_ALIAS(Scan_init)

int PMPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return all_init("MPI_Exscan_init", AllKind::Exscan, sendbuf, recvbuf, count, datatype, op, comm,
                  info, request);
}
MPISIM_WEAK_ALIAS(Exscan_init)

int PMPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Reduce_scatter_init", comm, info, request, [=](CollectiveCall& k) {
        return reduce_scatter_call(k, ScatterKind::PerRank, sendbuf, recvbuf, recvcounts, 0,
                                   datatype, op);
      });
}
MPISIM_WEAK_ALIAS(Reduce_scatter_init)

int PMPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) {
  return init_persistent_collective(
      "MPI_Reduce_scatter_block_init", comm, info, request, [=](CollectiveCall& k) {
        return reduce_scatter_call(k, ScatterKind::Block, sendbuf, recvbuf, nullptr, recvcount,
                                   datatype, op);
      });
}
MPISIM_WEAK_ALIAS(Reduce_scatter_block_init)

} // extern "C"
