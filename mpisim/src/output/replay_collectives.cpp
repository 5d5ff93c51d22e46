// The collectives of a replay: each recorded blocking, non-blocking ("i" before its name, its
// request last), persistent ("_init" after its name, its request last) or neighbourhood
// collective issued again with buffers of its sizes.
#include "rank_replay.hpp"

namespace mpisim::replaying {

bool is_collective(std::string_view op) {
  static constexpr std::string_view kCollectives[] = {"barrier",
                                                      "bcast",
                                                      "reduce",
                                                      "allreduce",
                                                      "scan",
                                                      "exscan",
                                                      "gather",
                                                      "gatherv",
                                                      "scatter",
                                                      "scatterv",
                                                      "allgather",
                                                      "allgatherv",
                                                      "alltoall",
                                                      "alltoallv",
                                                      "alltoallw",
                                                      "reduce_scatter",
                                                      "reduce_scatter_block",
                                                      "neighbor_allgather",
                                                      "neighbor_allgatherv",
                                                      "neighbor_alltoall",
                                                      "neighbor_alltoallv",
                                                      "neighbor_alltoallw"};
  return std::find(std::begin(kCollectives), std::end(kCollectives), op) != std::end(kCollectives);
}

void RankReplay::collective(std::string_view op) {
  if (op == "barrier") {
    issue(MPI_Barrier, MPI_Ibarrier, MPI_Barrier_init, comm());
    return;
  }
  if (op == "bcast") {
    const long long n = count();
    const MPI_Datatype t = type();
    const int root = integer();
    const MPI_Comm c = comm();
    issue(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, data(0, bytes_of(n, t)), static_cast<int>(n), t,
          root, c);
    return;
  }
  if (op.starts_with("neighbor_")) return neighbor(op.substr(9));
  const bool in_place = integer() != 0;
  if (op == "reduce" || op == "allreduce" || op == "scan" || op == "exscan" ||
      op == "reduce_scatter_block") {
    const long long n = count();
    const MPI_Datatype t = type();
    const MPI_Op o = reduce_op();
    const int root = op == "reduce" ? integer() : 0;
    const MPI_Comm c = comm();
    const long long copies = op == "reduce_scatter_block" ? comm_size(c) : 1;
    const void* in = in_place ? MPI_IN_PLACE : data(0, bytes_of(n, t, copies));
    void* out = data(1, bytes_of(n, t, copies));
    const int k = static_cast<int>(n);
    if (op == "reduce")
      issue(MPI_Reduce, MPI_Ireduce, MPI_Reduce_init, in, out, k, t, o, root, c);
    else if (op == "allreduce")
      issue(MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init, in, out, k, t, o, c);
    else if (op == "scan")
      issue(MPI_Scan, MPI_Iscan, MPI_Scan_init, in, out, k, t, o, c);
    else if (op == "exscan")
      issue(MPI_Exscan, MPI_Iexscan, MPI_Exscan_init, in, out, k, t, o, c);
    else
      issue(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, MPI_Reduce_scatter_block_init, in,
            out, k, t, o, c);
  } else if (op == "reduce_scatter") {
    std::vector<int> counts_of = counts();
    const MPI_Datatype t = type();
    const MPI_Op o = reduce_op();
    const MPI_Comm c = comm();
    fit(counts_of, comm_size(c)); // one per rank of the group that receives
    const std::size_t bytes = bytes_of(sum(counts_of), t);
    const void* in = in_place ? MPI_IN_PLACE : data(0, bytes);
    void* out = data(1, bytes);
    issue(MPI_Reduce_scatter, MPI_Ireduce_scatter, MPI_Reduce_scatter_init, in, out, counts_of, t,
          o, c);
  } else if (op == "gather" || op == "scatter" || op == "allgather" || op == "alltoall") {
    const long long scount = count();
    const MPI_Datatype stype = type();
    const long long rcount = count();
    const MPI_Datatype rtype = type();
    const int root = op == "gather" || op == "scatter" ? integer() : 0;
    const MPI_Comm c = comm();
    const long long p = blocks(c);
    const int sn = static_cast<int>(scount), rn = static_cast<int>(rcount);
    void* sbuf = data(0, bytes_of(scount, stype, p));
    void* rbuf = data(1, bytes_of(rcount, rtype, p));
    const void* in = in_place && op != "scatter" ? MPI_IN_PLACE : sbuf;
    void* out = in_place && op == "scatter" ? MPI_IN_PLACE : rbuf;
    if (op == "gather")
      issue(MPI_Gather, MPI_Igather, MPI_Gather_init, in, sn, stype, out, rn, rtype, root, c);
    else if (op == "scatter")
      issue(MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, in, sn, stype, out, rn, rtype, root, c);
    else if (op == "allgather")
      issue(MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, in, sn, stype, out, rn, rtype, c);
    else
      issue(MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, in, sn, stype, out, rn, rtype, c);
  } else if (op == "gatherv" || op == "allgatherv") {
    const long long scount = count();
    const MPI_Datatype stype = type();
    std::vector<int> rcounts = counts();
    const MPI_Datatype rtype = type();
    const int root = op == "gatherv" ? integer() : 0;
    const MPI_Comm c = comm();
    fit(rcounts, blocks(c));
    const std::vector<int> displs = displacements(rcounts);
    void* sbuf = in_place ? MPI_IN_PLACE : data(0, bytes_of(scount, stype));
    void* rbuf = data(1, bytes_of(sum(rcounts), rtype));
    const int sn = static_cast<int>(scount);
    if (op == "gatherv")
      issue(MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, sbuf, sn, stype, rbuf, rcounts, displs,
            rtype, root, c);
    else
      issue(MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, sbuf, sn, stype, rbuf, rcounts,
            displs, rtype, c);
  } else if (op == "scatterv") {
    std::vector<int> scounts = counts();
    const MPI_Datatype stype = type();
    const long long rcount = count();
    const MPI_Datatype rtype = type();
    const int root = integer();
    const MPI_Comm c = comm();
    fit(scounts, blocks(c));
    const std::vector<int> displs = displacements(scounts);
    void* sbuf = data(0, bytes_of(sum(scounts), stype));
    void* rbuf = in_place ? MPI_IN_PLACE : data(1, bytes_of(rcount, rtype));
    issue(MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, sbuf, scounts, displs, stype, rbuf,
          static_cast<int>(rcount), rtype, root, c);
  } else if (op == "alltoallv") {
    alltoallv(false, in_place);
  } else if (op == "alltoallw") {
    std::vector<int> scounts = counts();
    std::vector<MPI_Datatype> stypes = types();
    std::vector<int> rcounts = counts();
    std::vector<MPI_Datatype> rtypes = types();
    const MPI_Comm c = comm();
    fit(scounts, blocks(c));
    fit(rcounts, blocks(c));
    stypes.resize(scounts.size(), MPI_BYTE);
    rtypes.resize(rcounts.size(), MPI_BYTE);
    std::vector<int> sdispls, rdispls;
    const std::size_t sbytes = byte_displacements(scounts, stypes, sdispls);
    const std::size_t rbytes = byte_displacements(rcounts, rtypes, rdispls);
    void* sbuf = in_place ? MPI_IN_PLACE : data(0, sbytes);
    void* rbuf = data(1, rbytes);
    issue(MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, sbuf, scounts, sdispls, stypes, rbuf,
          rcounts, rdispls, rtypes, c);
  } else {
    throw BadRecord(fmt::format("unknown operation {}", op));
  }
}

void RankReplay::alltoallv(bool neighbors, bool in_place) {
  std::vector<int> scounts = counts();
  const MPI_Datatype stype = type();
  std::vector<int> rcounts = counts();
  const MPI_Datatype rtype = type();
  const MPI_Comm c = comm();
  if (neighbors) {
    fit_neighbors(scounts, c, false);
    fit_neighbors(rcounts, c, true);
  } else {
    fit(scounts, blocks(c));
    fit(rcounts, blocks(c));
  }
  const std::vector<int> sdispls = displacements(scounts), rdispls = displacements(rcounts);
  void* sbuf = in_place ? MPI_IN_PLACE : data(0, bytes_of(sum(scounts), stype));
  void* rbuf = data(1, bytes_of(sum(rcounts), rtype));
  // The neighbourhood form takes the same arguments, per neighbour instead of per rank.
  issue(neighbors ? MPI_Neighbor_alltoallv : MPI_Alltoallv,
        neighbors ? MPI_Ineighbor_alltoallv : MPI_Ialltoallv,
        neighbors ? MPI_Neighbor_alltoallv_init : MPI_Alltoallv_init, sbuf, scounts, sdispls, stype,
        rbuf, rcounts, rdispls, rtype, c);
}

void RankReplay::neighbor(std::string_view kind) {
  if (kind == "allgather" || kind == "alltoall") {
    const long long in = count(), out = count();
    const long long scount = count();
    const MPI_Datatype stype = type();
    const long long rcount = count();
    const MPI_Datatype rtype = type();
    const MPI_Comm c = comm();
    fit_neighbors(std::vector<int>(static_cast<std::size_t>(in)), c, true);
    fit_neighbors(std::vector<int>(static_cast<std::size_t>(out)), c, false);
    void* sbuf = data(0, bytes_of(scount, stype, kind == "alltoall" ? out : 1));
    void* rbuf = data(1, bytes_of(rcount, rtype, in));
    const int sn = static_cast<int>(scount), rn = static_cast<int>(rcount);
    if (kind == "allgather")
      issue(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, MPI_Neighbor_allgather_init, sbuf, sn,
            stype, rbuf, rn, rtype, c);
    else
      issue(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, MPI_Neighbor_alltoall_init, sbuf, sn,
            stype, rbuf, rn, rtype, c);
  } else if (kind == "allgatherv") {
    const long long scount = count();
    const MPI_Datatype stype = type();
    const std::vector<int> rcounts = counts();
    const MPI_Datatype rtype = type();
    const MPI_Comm c = comm();
    fit_neighbors(rcounts, c, true);
    const std::vector<int> displs = displacements(rcounts);
    void* sbuf = data(0, bytes_of(scount, stype));
    void* rbuf = data(1, bytes_of(sum(rcounts), rtype));
    issue(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, MPI_Neighbor_allgatherv_init, sbuf,
          static_cast<int>(scount), stype, rbuf, rcounts, displs, rtype, c);
  } else if (kind == "alltoallv") {
    alltoallv(true, false);
  } else if (kind == "alltoallw") {
    const std::vector<int> scounts = counts();
    const std::vector<MPI_Datatype> stypes = types();
    const std::vector<int> rcounts = counts();
    const std::vector<MPI_Datatype> rtypes = types();
    const MPI_Comm c = comm();
    fit_neighbors(scounts, c, false);
    fit_neighbors(rcounts, c, true);
    if (stypes.size() != scounts.size() || rtypes.size() != rcounts.size())
      throw BadRecord("a count and a datatype per neighbour");
    std::vector<MPI_Aint> sdispls, rdispls;
    void* sbuf = data(0, byte_displacements(scounts, stypes, sdispls));
    void* rbuf = data(1, byte_displacements(rcounts, rtypes, rdispls));
    issue(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, MPI_Neighbor_alltoallw_init, sbuf,
          scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, c);
  } else {
    throw BadRecord(fmt::format("unknown operation neighbor_{}", kind));
  }
}

} // namespace mpisim::replaying
