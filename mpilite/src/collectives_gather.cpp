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

} // namespace

void build_gather(Schedule& s, const void* sendbuf, std::size_t scount, const Datatype& stype_in,
                  void* recvbuf, std::size_t rcount, const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const bool is_root = s.rank() == root;
  const bool in_place = is_root && sendbuf == MPI_IN_PLACE;
  const std::size_t block = is_root ? rcount * rtype.size : scount * stype.size; // bytes per rank
  if (block == 0) return;
  const Tree t(s, root);
  // The blocks of this subtree, packed in relative rank order; the root's own first.
  auto* data = static_cast<std::byte*>(
      s.scratch(static_cast<std::size_t>(t.subtree()) * block, bytes_type()));
  if (!in_place)
    s.then([=, &stype] {
      pack(sendbuf, scount, stype, data);
      return MPI_SUCCESS;
    });
  std::size_t held = 1;
  for (int mask = 1; mask < t.p; mask <<= 1) {
    if (t.rel & mask) {
      s.send(data, held * block, bytes_type(), t.abs(t.rel - mask));
      break;
    }
    if (t.rel + mask < t.p) {
      const auto n = static_cast<std::size_t>(std::min(mask, t.p - t.rel - mask));
      s.recv(data + static_cast<std::size_t>(mask) * block, n * block, bytes_type(),
             t.abs(t.rel + mask));
      held += n;
    }
  }
  if (is_root)
    s.then([=, &rtype] {
      for (int i = in_place ? 1 : 0; i < t.p; ++i)
        unpack(data + static_cast<std::size_t>(i) * block, block, rtype,
               element(recvbuf, static_cast<MPI_Aint>(t.abs(i)) * static_cast<MPI_Aint>(rcount),
                       rtype));
      return MPI_SUCCESS;
    });
}

void build_scatter(Schedule& s, const void* sendbuf, std::size_t scount, const Datatype& stype_in,
                   void* recvbuf, std::size_t rcount, const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const bool is_root = s.rank() == root;
  const bool in_place = is_root && recvbuf == MPI_IN_PLACE;
  const std::size_t block = is_root ? scount * stype.size : rcount * rtype.size;
  if (block == 0) return;
  const Tree t(s, root);
  auto* data = static_cast<std::byte*>(
      s.scratch(static_cast<std::size_t>(t.subtree()) * block, bytes_type()));
  if (is_root)
    s.then([=, &stype] {
      for (int i = in_place ? 1 : 0; i < t.p; ++i)
        pack(element(sendbuf, static_cast<MPI_Aint>(t.abs(i)) * static_cast<MPI_Aint>(scount),
                     stype),
             scount, stype, data + static_cast<std::size_t>(i) * block);
      return MPI_SUCCESS;
    });
  int mask = 1;
  for (; mask < t.p; mask <<= 1)
    if (t.rel & mask) {
      s.recv(data, static_cast<std::size_t>(t.subtree()) * block, bytes_type(),
             t.abs(t.rel - mask));
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (t.rel + mask < t.p) {
      const auto n = static_cast<std::size_t>(std::min(mask, t.p - t.rel - mask));
      s.send(data + static_cast<std::size_t>(mask) * block, n * block, bytes_type(),
             t.abs(t.rel + mask));
    }
  if (!in_place)
    s.then([=, &rtype] {
      unpack(data, block, rtype, recvbuf);
      return MPI_SUCCESS;
    });
}

void build_gatherv(Schedule& s, const void* sendbuf, std::size_t scount, const Datatype& stype_in,
                   void* recvbuf, const int* counts, const int* displs, const Datatype& rtype_in,
                   int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const int p = s.size(), me = s.rank();
  if (me != root) {
    if (scount * stype.size == 0) return;
    const SendMode mode =
        p >= thresholds::kGathervSsendMinRanks ? SendMode::Synchronous : SendMode::Standard;
    s.post_send(sendbuf, scount, stype, root, mode);
    s.close();
    return;
  }
  if (sendbuf != MPI_IN_PLACE && counts[me] > 0) {
    void* mine = element(recvbuf, displs[me], rtype);
    const auto n = static_cast<std::size_t>(counts[me]);
    s.then([=, &stype, &rtype] {
      copy_typed(sendbuf, scount, stype, mine, n, rtype);
      return MPI_SUCCESS;
    });
  }
  for (int i = 0; i < p; ++i)
    if (i != me && counts[i] > 0 && rtype.size > 0)
      s.post_recv(element(recvbuf, displs[i], rtype), static_cast<std::size_t>(counts[i]), rtype,
                  i);
  s.close();
}

void build_scatterv(Schedule& s, const void* sendbuf, const int* counts, const int* displs,
                    const Datatype& stype_in, void* recvbuf, std::size_t rcount,
                    const Datatype& rtype_in, int root) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const int p = s.size(), me = s.rank();
  if (me != root) {
    if (rcount * rtype.size > 0) s.recv(recvbuf, rcount, rtype, root);
    return;
  }
  if (recvbuf != MPI_IN_PLACE && counts[me] > 0) {
    const void* mine = element(sendbuf, displs[me], stype);
    const auto n = static_cast<std::size_t>(counts[me]);
    s.then([=, &stype, &rtype] {
      copy_typed(mine, n, stype, recvbuf, rcount, rtype);
      return MPI_SUCCESS;
    });
  }
  for (int i = 0; i < p; ++i)
    if (i != me && counts[i] > 0 && stype.size > 0)
      s.post_send(element(sendbuf, displs[i], stype), static_cast<std::size_t>(counts[i]), stype,
                  i);
  s.close();
}

} // namespace mpilite
