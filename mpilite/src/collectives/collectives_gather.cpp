// MPI_Gather(v) and MPI_Scatter(v).
#include <algorithm>

#include "collective_thresholds.hpp"
#include "collectives.hpp"

namespace mpilite {
namespace {

const Datatype& bytes_type() {
  return *builtin_datatype(MPI_BYTE);
}

/// The binomial tree of gather and scatter, relative to the root.
struct Tree {
  int p, root, rel;
  Tree(const Schedule& s, int r)
      : p(s.size()), root(r), rel((s.rank() - r + s.size()) % s.size()) {}
  int abs(int relative) const { return (relative + root) % p; }
  /// Ranks in the subtree of `rel` (itself included).
  int subtree() const {
    if (rel == 0) return p;
    return std::min(rel & -rel, p - rel);
  }
};

/// Block i (in relative rank order) of a packed buffer of blocks of `block` bytes.
std::byte* packed_block(std::byte* data, int i, std::size_t block) {
  return data + static_cast<std::size_t>(i) * block;
}

} // namespace

CollTask build_gather(Schedule& s, const void* sendbuf, std::size_t scount,
                      const Datatype& stype_in, void* recvbuf, std::size_t rcount,
                      const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const bool is_root = s.rank() == root;
  const bool in_place = is_root && sendbuf == MPI_IN_PLACE;
  const std::size_t block = is_root ? rcount * rtype.size : scount * stype.size; // per rank
  if (block == 0) co_return;
  const Tree t(s, root);
  // The blocks of this subtree, packed in relative rank order; this rank's own first.
  auto* data = static_cast<std::byte*>(
      s.scratch(static_cast<std::size_t>(t.subtree()) * block, bytes_type()));
  if (!in_place) pack(sendbuf, scount, stype, data);
  std::size_t held = 1;
  for (int mask = 1; mask < t.p; mask <<= 1) {
    if (t.rel & mask) {
      co_await s.send(data, held * block, bytes_type(), t.abs(t.rel - mask));
      break;
    }
    if (t.rel + mask < t.p) {
      const auto n = static_cast<std::size_t>(std::min(mask, t.p - t.rel - mask));
      co_await s.recv(packed_block(data, mask, block), n * block, bytes_type(),
                      t.abs(t.rel + mask));
      held += n;
    }
  }
  if (!is_root) co_return;
  for (int i = in_place ? 1 : 0; i < t.p; ++i)
    unpack(
        packed_block(data, i, block), block, rtype,
        element(recvbuf, static_cast<MPI_Aint>(t.abs(i)) * static_cast<MPI_Aint>(rcount), rtype));
}

CollTask build_scatter(Schedule& s, const void* sendbuf, std::size_t scount,
                       const Datatype& stype_in, void* recvbuf, std::size_t rcount,
                       const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const bool is_root = s.rank() == root;
  const bool in_place = is_root && recvbuf == MPI_IN_PLACE;
  const std::size_t block = is_root ? scount * stype.size : rcount * rtype.size;
  if (block == 0) co_return;
  const Tree t(s, root);
  auto* data = static_cast<std::byte*>(
      s.scratch(static_cast<std::size_t>(t.subtree()) * block, bytes_type()));
  if (is_root)
    for (int i = in_place ? 1 : 0; i < t.p; ++i)
      pack(element(sendbuf, static_cast<MPI_Aint>(t.abs(i)) * static_cast<MPI_Aint>(scount), stype),
           scount, stype, packed_block(data, i, block));
  int mask = 1;
  for (; mask < t.p; mask <<= 1)
    if (t.rel & mask) {
      co_await s.recv(data, static_cast<std::size_t>(t.subtree()) * block, bytes_type(),
                      t.abs(t.rel - mask));
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (t.rel + mask < t.p) {
      const auto n = static_cast<std::size_t>(std::min(mask, t.p - t.rel - mask));
      co_await s.send(packed_block(data, mask, block), n * block, bytes_type(),
                      t.abs(t.rel + mask));
    }
  if (!in_place) unpack(data, block, rtype, recvbuf);
}

CollTask build_gatherv(Schedule& s, const void* sendbuf, std::size_t scount,
                       const Datatype& stype_in, void* recvbuf, const int* counts,
                       const int* displs, const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const int p = s.size(), me = s.rank();
  if (me != root) {
    if (scount * stype.size == 0) co_return;
    const SendMode mode =
        p >= thresholds::kGathervSsendMinRanks ? SendMode::Synchronous : SendMode::Standard;
    s.post_send(sendbuf, scount, stype, root, mode);
    co_await s.wait();
    co_return;
  }
  if (sendbuf != MPI_IN_PLACE && counts[me] > 0)
    copy_typed(sendbuf, scount, stype, element(recvbuf, displs[me], rtype),
               static_cast<std::size_t>(counts[me]), rtype);
  for (int i = 0; i < p; ++i)
    if (i != me && counts[i] > 0 && rtype.size > 0)
      s.post_recv(element(recvbuf, displs[i], rtype), static_cast<std::size_t>(counts[i]), rtype,
                  i);
  co_await s.wait();
}

CollTask build_scatterv(Schedule& s, const void* sendbuf, const int* counts, const int* displs,
                        const Datatype& stype_in, void* recvbuf, std::size_t rcount,
                        const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const int p = s.size(), me = s.rank();
  if (me != root) {
    if (rcount * rtype.size > 0) co_await s.recv(recvbuf, rcount, rtype, root);
    co_return;
  }
  if (recvbuf != MPI_IN_PLACE && counts[me] > 0)
    copy_typed(element(sendbuf, displs[me], stype), static_cast<std::size_t>(counts[me]), stype,
               recvbuf, rcount, rtype);
  for (int i = 0; i < p; ++i)
    if (i != me && counts[i] > 0 && stype.size > 0)
      s.post_send(element(sendbuf, displs[i], stype), static_cast<std::size_t>(counts[i]), stype,
                  i);
  co_await s.wait();
}

} // namespace mpilite
