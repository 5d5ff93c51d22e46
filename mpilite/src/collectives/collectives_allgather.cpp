// MPI_Allgather and MPI_Allgatherv: one set of algorithms over per-rank blocks of the receive
// type (Allgather's blocks are all `rcount` elements at multiples of `rcount`).
#include <algorithm>
#include <numeric>
#include <vector>

#include "collective_thresholds.hpp"
#include "collectives.hpp"

namespace mpilite {
namespace {

struct Blocks {
  std::vector<std::size_t> count;  ///< elements of the receive type per rank
  std::vector<MPI_Aint> displ;     ///< where each block goes in the receive buffer
  std::vector<std::size_t> packed; ///< where each block goes in rank order, without gaps
  std::size_t total = 0;

  explicit Blocks(int p)
      : count(static_cast<std::size_t>(p)), displ(static_cast<std::size_t>(p)),
        packed(static_cast<std::size_t>(p) + 1) {}
  void finish() {
    for (std::size_t i = 0; i < count.size(); ++i)
      packed[i + 1] = packed[i] + count[i];
    total = packed.back();
  }
  /// Elements of the blocks of ranks [from, to), clipped to the communicator.
  std::size_t span(int from, int to) const {
    const auto n = static_cast<int>(count.size());
    return packed[static_cast<std::size_t>(std::min(to, n))] -
           packed[static_cast<std::size_t>(std::min(from, n))];
  }
  std::size_t of(int rank) const { return count[static_cast<std::size_t>(rank)]; }
  /// The receive buffer holds the blocks in rank order without gaps (Allgather's layout, and
  /// the usual Allgatherv's), so an algorithm may gather into it directly.
  bool in_rank_order() const {
    for (std::size_t i = 0; i < count.size(); ++i)
      if (displ[i] != static_cast<MPI_Aint>(packed[i])) return false;
    return true;
  }
  MPI_Aint at(int rank) const { return displ[static_cast<std::size_t>(rank)]; }
};

/// Where this rank's own block comes from: the send buffer, or the receive buffer in place.
struct Own {
  const void* buf;
  std::size_t count;
  const Datatype* type;
};

void copy_own(const Own& own, void* to, std::size_t count, const Datatype& type) {
  copy_typed(own.buf, own.count, *own.type, to, count, type);
}

/// Recursive doubling on a power of two: subtrees swap everything they hold, in rank order;
/// through a scratch buffer only when the receive buffer has another layout (the copy out of it
/// costs a call per rank, which at thousands of ranks outweighs the messages).
CollTask allgather_doubling(Schedule& s, const Own& own, void* recvbuf, const Blocks& b,
                            const Datatype& type) {
  const int p = s.size(), me = s.rank();
  const bool direct = b.in_rank_order();
  void* tmp = direct ? recvbuf : s.scratch(b.total, type);
  auto pos = [&](int rank) { return element(tmp, static_cast<MPI_Aint>(b.span(0, rank)), type); };
  if (own.buf != pos(me)) copy_own(own, pos(me), b.of(me), type);
  std::size_t held = b.of(me);
  for (int mask = 1, i = 0; mask < p; mask <<= 1, ++i) {
    const int dst = me ^ mask;
    const int dst_tree = (dst >> i) << i, my_tree = (me >> i) << i;
    const std::size_t incoming = b.span(dst_tree, dst_tree + mask);
    co_await s.exchange(pos(my_tree), held, type, dst, pos(dst_tree), incoming, type, dst);
    held += incoming;
  }
  if (direct) co_return;
  for (int r = 0; r < p; ++r)
    copy_elements(element(tmp, static_cast<MPI_Aint>(b.span(0, r)), type),
                  element(recvbuf, b.at(r), type), b.of(r), type);
}

/// Bruck: ceil(log2 p) steps; in step k a rank passes everything it has to rank - 2^k.
CollTask allgather_bruck(Schedule& s, const Own& own, void* recvbuf, const Blocks& b,
                         const Datatype& type) {
  const int p = s.size(), me = s.rank();
  void* tmp = s.scratch(b.total, type); // blocks of me, me+1, ... in that order
  auto run = [&](int from, int n) {     // elements of the blocks of n ranks from `from` (mod p)
    std::size_t sum = 0;
    for (int i = 0; i < n; ++i)
      sum += b.of((from + i) % p);
    return sum;
  };
  copy_own(own, tmp, b.of(me), type);
  std::size_t held = b.of(me);
  int pof2 = 1;
  for (; pof2 <= p / 2; pof2 *= 2) {
    const int src = (me + pof2) % p, dst = (me - pof2 + p) % p;
    const std::size_t incoming = run(src, pof2);
    co_await s.exchange(tmp, held, type, dst, element(tmp, static_cast<MPI_Aint>(held), type),
                        incoming, type, src);
    held += incoming;
  }
  if (const int rem = p - pof2; rem > 0) {
    const int src = (me + pof2) % p, dst = (me - pof2 + p) % p;
    co_await s.exchange(tmp, run(me, rem), type, dst,
                        element(tmp, static_cast<MPI_Aint>(held), type), run(src, rem), type, src);
  }
  std::size_t at = 0;
  for (int i = 0; i < p; ++i) {
    const int r = (me + i) % p;
    copy_elements(element(tmp, static_cast<MPI_Aint>(at), type), element(recvbuf, b.at(r), type),
                  b.of(r), type);
    at += b.of(r);
  }
}

/// Ring: every block travels p - 1 hops to the right; blocks larger than `piece` elements go in
/// pieces of `piece` (0: whole blocks). `own` is null when the own block is already in place.
CollTask allgather_ring(Schedule& s, const Own* own, void* recvbuf, const Blocks& b,
                        const Datatype& type, std::size_t piece) {
  const int p = s.size(), me = s.rank();
  const int left = (me - 1 + p) % p, right = (me + 1) % p;
  if (own) copy_own(*own, element(recvbuf, b.at(me), type), b.of(me), type);
  if (piece == 0) piece = *std::max_element(b.count.begin(), b.count.end());
  std::size_t to_receive = b.total - b.of(me), to_send = b.total - b.of(right);
  std::size_t sent = 0, received = 0; // of the blocks in transit
  int out = me, in = left;
  while (to_send > 0 || to_receive > 0) {
    const std::size_t send_now = to_send ? std::min(b.of(out) - sent, piece) : 0;
    const std::size_t recv_now = to_receive ? std::min(b.of(in) - received, piece) : 0;
    if (send_now > 0)
      s.post_send(element(recvbuf, b.at(out) + static_cast<MPI_Aint>(sent), type), send_now, type,
                  right);
    if (recv_now > 0)
      s.post_recv(element(recvbuf, b.at(in) + static_cast<MPI_Aint>(received), type), recv_now,
                  type, left);
    co_await s.wait();
    to_send -= send_now;
    to_receive -= recv_now;
    sent += send_now;
    received += recv_now;
    if (sent == b.of(out)) {
      sent = 0;
      out = (out - 1 + p) % p;
    }
    if (received == b.of(in)) {
      received = 0;
      in = (in - 1 + p) % p;
    }
  }
}

CollTask allgather_blocks(Schedule& s, const void* sendbuf, std::size_t scount,
                          const Datatype& stype, void* recvbuf, const Blocks& b,
                          const Datatype& type, bool pieces) {
  using namespace thresholds;
  if (b.total == 0) co_return;
  const int me = s.rank();
  const Own own = sendbuf == MPI_IN_PLACE ? Own{element(recvbuf, b.at(me), type), b.of(me), &type}
                                          : Own{sendbuf, scount, &stype};
  const std::size_t bytes = b.total * type.size;
  if (bytes < kAllgatherLong && is_pof2(s.size())) {
    co_await allgather_doubling(s, own, recvbuf, b, type);
  } else if (bytes < kAllgatherShort) {
    co_await allgather_bruck(s, own, recvbuf, b, type);
  } else {
    std::size_t piece = 0; // whole blocks
    const auto extent = static_cast<std::size_t>(std::max<MPI_Aint>(type.extent, 1));
    if (pieces && *std::max_element(b.count.begin(), b.count.end()) * extent > kAllgathervPipeline)
      piece = std::max<std::size_t>(1, kAllgathervPipeline / extent);
    const Own* copy = sendbuf == MPI_IN_PLACE ? nullptr : &own;
    co_await allgather_ring(s, copy, recvbuf, b, type, piece);
  }
}

} // namespace

CollTask build_allgather(Schedule& s, const void* sendbuf, std::size_t scount,
                         const Datatype& stype, void* recvbuf, std::size_t rcount,
                         const Datatype& rtype) {
  const Datatype& st = s.keep(stype);
  const Datatype& rt = s.keep(rtype);
  if ((scount == 0 && sendbuf != MPI_IN_PLACE) || rcount == 0) co_return;
  Blocks b(s.size());
  for (int r = 0; r < s.size(); ++r) {
    b.count[static_cast<std::size_t>(r)] = rcount;
    b.displ[static_cast<std::size_t>(r)] = static_cast<MPI_Aint>(rcount) * r;
  }
  b.finish();
  co_await allgather_blocks(s, sendbuf, scount, st, recvbuf, b, rt, false);
}

CollTask build_allgatherv(Schedule& s, const void* sendbuf, std::size_t scount,
                          const Datatype& stype, void* recvbuf, const int* counts,
                          const int* displs, const Datatype& rtype) {
  const Datatype& st = s.keep(stype);
  const Datatype& rt = s.keep(rtype);
  Blocks b(s.size());
  for (int r = 0; r < s.size(); ++r) {
    b.count[static_cast<std::size_t>(r)] = static_cast<std::size_t>(counts[r]);
    b.displ[static_cast<std::size_t>(r)] = displs[r];
  }
  b.finish();
  co_await allgather_blocks(s, sendbuf, scount, st, recvbuf, b, rt, true);
}

} // namespace mpilite
