// The collectives of a replay: each recorded blocking, non-blocking ("i" before its name, its
// request last) or neighbourhood collective issued again with buffers of its sizes.
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
    const MPI_Comm c = comm();
    MPI_Request* q = started();
    q ? MPI_Ibarrier(c, q) : MPI_Barrier(c);
    return;
  }
  if (op == "bcast") {
    const long long n = count();
    const MPI_Datatype t = type();
    const int root = integer();
    const MPI_Comm c = comm();
    void* buf = data(0, bytes_of(n, t));
    MPI_Request* q = started();
    const int k = static_cast<int>(n);
    q ? MPI_Ibcast(buf, k, t, root, c, q) : MPI_Bcast(buf, k, t, root, c);
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
    MPI_Request* q = started();
    const int k = static_cast<int>(n);
    if (op == "reduce")
      q ? MPI_Ireduce(in, out, k, t, o, root, c, q) : MPI_Reduce(in, out, k, t, o, root, c);
    else if (op == "allreduce")
      q ? MPI_Iallreduce(in, out, k, t, o, c, q) : MPI_Allreduce(in, out, k, t, o, c);
    else if (op == "scan")
      q ? MPI_Iscan(in, out, k, t, o, c, q) : MPI_Scan(in, out, k, t, o, c);
    else if (op == "exscan")
      q ? MPI_Iexscan(in, out, k, t, o, c, q) : MPI_Exscan(in, out, k, t, o, c);
    else
      q ? MPI_Ireduce_scatter_block(in, out, k, t, o, c, q)
        : MPI_Reduce_scatter_block(in, out, k, t, o, c);
  } else if (op == "reduce_scatter") {
    std::vector<int> counts_of = counts();
    const MPI_Datatype t = type();
    const MPI_Op o = reduce_op();
    const MPI_Comm c = comm();
    fit(counts_of, c);
    const std::size_t bytes = bytes_of(sum(counts_of), t);
    const void* in = in_place ? MPI_IN_PLACE : data(0, bytes);
    void* out = data(1, bytes);
    MPI_Request* q = started();
    q ? MPI_Ireduce_scatter(in, out, counts_of.data(), t, o, c, q)
      : MPI_Reduce_scatter(in, out, counts_of.data(), t, o, c);
  } else if (op == "gather" || op == "scatter" || op == "allgather" || op == "alltoall") {
    const long long scount = count();
    const MPI_Datatype stype = type();
    const long long rcount = count();
    const MPI_Datatype rtype = type();
    const int root = op == "gather" || op == "scatter" ? integer() : 0;
    const MPI_Comm c = comm();
    const long long p = comm_size(c);
    const int sn = static_cast<int>(scount), rn = static_cast<int>(rcount);
    void* sbuf = data(0, bytes_of(scount, stype, p));
    void* rbuf = data(1, bytes_of(rcount, rtype, p));
    MPI_Request* q = started();
    if (op == "gather") {
      const void* in = in_place ? MPI_IN_PLACE : sbuf;
      q ? MPI_Igather(in, sn, stype, rbuf, rn, rtype, root, c, q)
        : MPI_Gather(in, sn, stype, rbuf, rn, rtype, root, c);
    } else if (op == "scatter") {
      void* out = in_place ? MPI_IN_PLACE : rbuf;
      q ? MPI_Iscatter(sbuf, sn, stype, out, rn, rtype, root, c, q)
        : MPI_Scatter(sbuf, sn, stype, out, rn, rtype, root, c);
    } else if (op == "allgather") {
      const void* in = in_place ? MPI_IN_PLACE : sbuf;
      q ? MPI_Iallgather(in, sn, stype, rbuf, rn, rtype, c, q)
        : MPI_Allgather(in, sn, stype, rbuf, rn, rtype, c);
    } else {
      const void* in = in_place ? MPI_IN_PLACE : sbuf;
      q ? MPI_Ialltoall(in, sn, stype, rbuf, rn, rtype, c, q)
        : MPI_Alltoall(in, sn, stype, rbuf, rn, rtype, c);
    }
  } else if (op == "gatherv" || op == "allgatherv") {
    const long long scount = count();
    const MPI_Datatype stype = type();
    std::vector<int> rcounts = counts();
    const MPI_Datatype rtype = type();
    const int root = op == "gatherv" ? integer() : 0;
    const MPI_Comm c = comm();
    fit(rcounts, c);
    const std::vector<int> displs = displacements(rcounts);
    void* sbuf = in_place ? MPI_IN_PLACE : data(0, bytes_of(scount, stype));
    void* rbuf = data(1, bytes_of(sum(rcounts), rtype));
    MPI_Request* q = started();
    const int sn = static_cast<int>(scount);
    if (op == "gatherv")
      q ? MPI_Igatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, root, c, q)
        : MPI_Gatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, root, c);
    else
      q ? MPI_Iallgatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, c, q)
        : MPI_Allgatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, c);
  } else if (op == "scatterv") {
    std::vector<int> scounts = counts();
    const MPI_Datatype stype = type();
    const long long rcount = count();
    const MPI_Datatype rtype = type();
    const int root = integer();
    const MPI_Comm c = comm();
    fit(scounts, c);
    const std::vector<int> displs = displacements(scounts);
    void* sbuf = data(0, bytes_of(sum(scounts), stype));
    void* rbuf = in_place ? MPI_IN_PLACE : data(1, bytes_of(rcount, rtype));
    MPI_Request* q = started();
    const int rn = static_cast<int>(rcount);
    q ? MPI_Iscatterv(sbuf, scounts.data(), displs.data(), stype, rbuf, rn, rtype, root, c, q)
      : MPI_Scatterv(sbuf, scounts.data(), displs.data(), stype, rbuf, rn, rtype, root, c);
  } else if (op == "alltoallv") {
    alltoallv(false, in_place);
  } else if (op == "alltoallw") {
    std::vector<int> scounts = counts();
    std::vector<MPI_Datatype> stypes = types();
    std::vector<int> rcounts = counts();
    std::vector<MPI_Datatype> rtypes = types();
    const MPI_Comm c = comm();
    fit(scounts, c);
    fit(rcounts, c);
    stypes.resize(scounts.size(), MPI_BYTE);
    rtypes.resize(rcounts.size(), MPI_BYTE);
    std::vector<int> sdispls, rdispls;
    const std::size_t sbytes = byte_displacements(scounts, stypes, sdispls);
    const std::size_t rbytes = byte_displacements(rcounts, rtypes, rdispls);
    void* sbuf = in_place ? MPI_IN_PLACE : data(0, sbytes);
    void* rbuf = data(1, rbytes);
    MPI_Request* q = started();
    q ? MPI_Ialltoallw(sbuf, scounts.data(), sdispls.data(), stypes.data(), rbuf, rcounts.data(),
                       rdispls.data(), rtypes.data(), c, q)
      : MPI_Alltoallw(sbuf, scounts.data(), sdispls.data(), stypes.data(), rbuf, rcounts.data(),
                      rdispls.data(), rtypes.data(), c);
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
    fit(scounts, c);
    fit(rcounts, c);
  }
  const std::vector<int> sdispls = displacements(scounts), rdispls = displacements(rcounts);
  void* sbuf = in_place ? MPI_IN_PLACE : data(0, bytes_of(sum(scounts), stype));
  void* rbuf = data(1, bytes_of(sum(rcounts), rtype));
  MPI_Request* q = started();
  // The neighbourhood form takes the same arguments, per neighbour instead of per rank.
  if (q)
    (neighbors ? MPI_Ineighbor_alltoallv : MPI_Ialltoallv)(sbuf, scounts.data(), sdispls.data(),
                                                           stype, rbuf, rcounts.data(),
                                                           rdispls.data(), rtype, c, q);
  else
    (neighbors ? MPI_Neighbor_alltoallv : MPI_Alltoallv)(sbuf, scounts.data(), sdispls.data(),
                                                         stype, rbuf, rcounts.data(),
                                                         rdispls.data(), rtype, c);
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
    MPI_Request* q = started();
    const int sn = static_cast<int>(scount), rn = static_cast<int>(rcount);
    if (kind == "allgather")
      q ? MPI_Ineighbor_allgather(sbuf, sn, stype, rbuf, rn, rtype, c, q)
        : MPI_Neighbor_allgather(sbuf, sn, stype, rbuf, rn, rtype, c);
    else
      q ? MPI_Ineighbor_alltoall(sbuf, sn, stype, rbuf, rn, rtype, c, q)
        : MPI_Neighbor_alltoall(sbuf, sn, stype, rbuf, rn, rtype, c);
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
    MPI_Request* q = started();
    const int sn = static_cast<int>(scount);
    q ? MPI_Ineighbor_allgatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, c, q)
      : MPI_Neighbor_allgatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, c);
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
    MPI_Request* q = started();
    q ? MPI_Ineighbor_alltoallw(sbuf, scounts.data(), sdispls.data(), stypes.data(), rbuf,
                                rcounts.data(), rdispls.data(), rtypes.data(), c, q)
      : MPI_Neighbor_alltoallw(sbuf, scounts.data(), sdispls.data(), stypes.data(), rbuf,
                               rcounts.data(), rdispls.data(), rtypes.data(), c);
  } else {
    throw BadRecord(fmt::format("unknown operation neighbor_{}", kind));
  }
}

} // namespace mpisim::replaying
