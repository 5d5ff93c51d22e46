// MPI_Allgather and MPI_Allgatherv: one set of algorithms over per-rank blocks of the receive
// type (Allgather's blocks are all `rcount` elements at multiples of `rcount`).
#include <algorithm>
#include <memory>

#include "collective_thresholds.hpp"
#include "collectives.hpp"

namespace mpilite {
namespace {

/// The ranks' blocks. Every rank of a collective builds them, so at p ranks a call costs the
/// simulator p times their set-up: an Allgather's (all blocks alike) costs nothing per rank,
/// and an Allgatherv's is one pass over the counts into one array (and the displacements into
/// a second only where the layout is not rank order), not zeroed first. At 1 024 ranks the
/// set-up in three zeroed arrays and four passes was 18 % of NPB-style CG's instructions.
class Blocks {
public:
  /// p blocks of `count` elements each, in rank order.
  Blocks(int p, std::size_t count) : p_(p), uniform_(count), max_(count) {
    total_ = count * static_cast<std::size_t>(p);
  }
  /// Allgatherv's blocks: counts[r] elements at displs[r].
  Blocks(int p, const int* counts, const int* displs) : p_(p) {
    const auto n = static_cast<std::size_t>(p);
    packed_.reset(new std::size_t[n + 1]);
    // In locals: a store through `packed` could otherwise alias the members, which the loop
    // would then reload and store at every block.
    std::size_t* packed = packed_.get();
    std::size_t sum = 0, largest = 0;
    bool rank_order = true;
    for (std::size_t i = 0; i < n; ++i) {
      const auto c = static_cast<std::size_t>(counts[i]);
      packed[i] = sum;
      rank_order &= displs[i] == static_cast<MPI_Aint>(sum);
      largest = std::max(largest, c);
      sum += c;
    }
    packed[n] = total_ = sum;
    max_ = largest;
    if (!rank_order) {
      displ_.reset(new MPI_Aint[n]);
      std::copy(displs, displs + n, displ_.get());
    }
  }
  std::size_t total() const { return total_; }
  std::size_t largest() const { return max_; }
  /// Elements of the blocks of ranks [from, to), clipped to the communicator.
  std::size_t span(int from, int to) const {
    return start(std::min(to, p_)) - start(std::min(from, p_));
  }
  std::size_t of(int rank) const { return start(rank + 1) - start(rank); }
  /// The receive buffer holds the blocks in rank order without gaps (Allgather's layout, and
  /// the usual Allgatherv's), so an algorithm may gather into it directly.
  bool in_rank_order() const { return !displ_; }
  MPI_Aint at(int rank) const {
    return displ_ ? displ_[static_cast<std::size_t>(rank)] : static_cast<MPI_Aint>(start(rank));
  }

private:
  /// Elements before `rank`'s block in rank order.
  std::size_t start(int rank) const {
    return packed_ ? packed_[static_cast<std::size_t>(rank)]
                   : uniform_ * static_cast<std::size_t>(rank);
  }

  int p_;
  std::size_t uniform_ = 0; ///< every block's count, when packed_ is null
  std::size_t max_ = 0;
  std::size_t total_ = 0;
  std::unique_ptr<std::size_t[]> packed_; ///< p + 1 prefix sums of the counts
  std::unique_ptr<MPI_Aint[]> displ_;     ///< null when the blocks lie in rank order
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
  void* tmp = direct ? recvbuf : s.scratch(b.total(), type);
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
  void* tmp = s.scratch(b.total(), type); // blocks of me, me+1, ... in that order
  auto run = [&](int from, int n) {       // elements of the blocks of n ranks from `from` (mod p)
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
  if (piece == 0) piece = b.largest();
  std::size_t to_receive = b.total() - b.of(me), to_send = b.total() - b.of(right);
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
  if (b.total() == 0) co_return;
  const int me = s.rank();
  const Own own = sendbuf == MPI_IN_PLACE ? Own{element(recvbuf, b.at(me), type), b.of(me), &type}
                                          : Own{sendbuf, scount, &stype};
  const std::size_t bytes = b.total() * type.size;
  if (bytes < kAllgatherLong && is_pof2(s.size())) {
    co_await allgather_doubling(s, own, recvbuf, b, type);
  } else if (bytes < kAllgatherShort) {
    co_await allgather_bruck(s, own, recvbuf, b, type);
  } else {
    std::size_t piece = 0; // whole blocks
    const auto extent = static_cast<std::size_t>(std::max<MPI_Aint>(type.extent, 1));
    if (pieces && b.largest() * extent > kAllgathervPipeline)
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
  const Blocks b(s.size(), rcount);
  co_await allgather_blocks(s, sendbuf, scount, st, recvbuf, b, rt, false);
}

CollTask build_allgatherv(Schedule& s, const void* sendbuf, std::size_t scount,
                          const Datatype& stype, void* recvbuf, const int* counts,
                          const int* displs, const Datatype& rtype) {
  const Datatype& st = s.keep(stype);
  const Datatype& rt = s.keep(rtype);
  const Blocks b(s.size(), counts, displs);
  co_await allgather_blocks(s, sendbuf, scount, st, recvbuf, b, rt, true);
}

} // namespace mpilite
