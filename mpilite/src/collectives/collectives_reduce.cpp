// MPI_Reduce and MPI_Allreduce.
#include <utility>

#include "collective_thresholds.hpp"
#include "collectives.hpp"

namespace mpilite {
namespace {

CollTask reduce_binomial(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                         const Datatype& type, int root) {
  const int p = s.size(), me = s.rank();
  if (count == 0) co_return;
  const bool commutative = s.op().commutative;
  // Non-commutative ops reduce toward rank 0 so that subtrees are combined in rank order.
  const int tree_root = commutative ? root : 0;
  void* acc = s.scratch(count, type);
  void* tmp = s.scratch(count, type);
  copy_elements(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, acc, count, type);
  const int rel = (me - tree_root + p) % p;
  auto abs = [&](int relative) { return (relative + tree_root) % p; };
  for (int mask = 1; mask < p; mask <<= 1) {
    if (rel & mask) {
      co_await s.send(acc, count, type, abs(rel & ~mask));
      break;
    }
    if ((rel | mask) >= p) continue;
    co_await s.recv(tmp, count, type, abs(rel | mask));
    if (commutative) {
      s.reduce(tmp, acc, count, type);
    } else { // acc holds lower ranks: acc op tmp
      s.reduce(acc, tmp, count, type);
      std::swap(acc, tmp);
    }
  }
  if (tree_root != root) {
    if (me == tree_root) co_await s.send(acc, count, type, root);
    if (me == root) co_await s.recv(recvbuf, count, type, tree_root);
  } else if (me == root) {
    copy_elements(acc, recvbuf, count, type);
  }
}

/// The blocks of Rabenseifner's algorithms: count split over pof2 ranks, the last taking the
/// rest. Computed, not tabled: every rank of the collective asks for O(log p) of them, and a
/// table cost each rank O(p), O(p^2) for the call at p ranks.
class Blocks {
public:
  Blocks(std::size_t count, int pof2)
      : count_(count), each_(count / static_cast<std::size_t>(pof2)), pof2_(pof2) {}
  /// Elements of blocks [from, to).
  std::size_t count(int from, int to) const { return start(to) - start(from); }
  MPI_Aint at(int block) const { return static_cast<MPI_Aint>(start(block)); }

private:
  std::size_t start(int block) const {
    return block == pof2_ ? count_ : each_ * static_cast<std::size_t>(block);
  }

  std::size_t count_, each_;
  int pof2_;
};

/// Where Rabenseifner's reduce-scatter leaves a rank: `acc` holds the reduction of blocks
/// [send_idx, last_idx).
struct Halving {
  int send_idx = 0, recv_idx = 0, last_idx = 0;

  /// One step of the doubling that reverses the halving (Rabenseifner's second half, toward
  /// `newdst` with distance `mask`): moves recv_idx (and last_idx) and returns how many elements
  /// this rank sends and receives.
  std::pair<std::size_t, std::size_t> undo_step(const Blocks& b, int newrank, int newdst, int mask,
                                                int pof2) {
    const int step = pof2 / (mask * 2);
    if (newrank < newdst) {
      if (mask != pof2 / 2) last_idx += step;
      recv_idx = send_idx + step;
      return {b.count(send_idx, recv_idx), b.count(recv_idx, last_idx)};
    }
    recv_idx = send_idx - step;
    return {b.count(send_idx, last_idx), b.count(recv_idx, send_idx)};
  }
};

/// Recursive-halving reduce-scatter over the pof2 ranks left after the fold (Rabenseifner's
/// first half); sets `h`.
CollTask reduce_scatter_halving(Schedule& s, void* acc, void* tmp, const Blocks& b,
                                const Datatype& type, int newrank, int pof2, int rem,
                                int folded_partner_offset, Halving& h) {
  h = Halving{0, 0, pof2};
  for (int mask = 1; mask < pof2;) {
    const int newdst = newrank ^ mask;
    const int dst = newdst < rem ? newdst * 2 + folded_partner_offset : newdst + rem;
    std::size_t send_cnt, recv_cnt;
    if (newrank < newdst) {
      h.send_idx = h.recv_idx + pof2 / (mask * 2);
      send_cnt = b.count(h.send_idx, h.last_idx);
      recv_cnt = b.count(h.recv_idx, h.send_idx);
    } else {
      h.recv_idx = h.send_idx + pof2 / (mask * 2);
      send_cnt = b.count(h.send_idx, h.recv_idx);
      recv_cnt = b.count(h.recv_idx, h.last_idx);
    }
    co_await s.exchange(element(acc, b.at(h.send_idx), type), send_cnt, type, dst,
                        element(tmp, b.at(h.recv_idx), type), recv_cnt, type, dst);
    s.reduce(element(tmp, b.at(h.recv_idx), type), element(acc, b.at(h.recv_idx), type), recv_cnt,
             type);
    h.send_idx = h.recv_idx;
    mask <<= 1;
    if (mask < pof2) h.last_idx = h.recv_idx + pof2 / mask;
  }
}

/// Rabenseifner's reduce: reduce-scatter, then a binomial gather of the blocks to the root.
/// MPICH's fold: odd ranks below 2*rem hand their data to the even rank below them.
CollTask reduce_rabenseifner(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                             const Datatype& type, int root) {
  const int p = s.size(), me = s.rank();
  const int pof2 = pof2_floor(p), rem = p - pof2;
  void* acc = s.scratch(count, type);
  void* tmp = s.scratch(count, type);
  copy_elements(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, acc, count, type);
  int newrank;
  if (me < 2 * rem) {
    if (me % 2 != 0) {
      co_await s.send(acc, count, type, me - 1);
      newrank = -1;
    } else {
      co_await s.recv(tmp, count, type, me + 1);
      s.reduce(tmp, acc, count, type);
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  const Blocks b(count, pof2);
  Halving h{0, 0, pof2};
  if (newrank != -1)
    co_await reduce_scatter_halving(s, acc, tmp, b, type, newrank, pof2, rem, 0, h);
  // An excluded (odd) root takes the place of new rank 0 for the gather.
  int newroot;
  const bool root_excluded = root < 2 * rem && root % 2 != 0;
  if (root_excluded) {
    if (me == root) {
      co_await s.recv(acc, b.count(0, 1), type, 0);
      newrank = 0;
      h = Halving{0, 0, 2};
    } else if (newrank == 0) {
      co_await s.send(acc, b.count(0, 1), type, root);
      newrank = -1;
    }
    newroot = 0;
  } else {
    newroot = root < 2 * rem ? root / 2 : root - rem;
  }
  if (newrank != -1) {
    int j = 0, mask = 1;
    while (mask < pof2) {
      mask <<= 1;
      ++j;
    }
    mask >>= 1;
    --j;
    for (; mask > 0; mask >>= 1, --j) {
      const int newdst = newrank ^ mask;
      int dst = newdst < rem ? newdst * 2 : newdst + rem;
      if (newdst == 0 && root_excluded) dst = root;
      const auto [send_cnt, recv_cnt] = h.undo_step(b, newrank, newdst, mask, pof2);
      if ((newdst >> j) == (newroot >> j)) { // newdst is on the root's side: hand over, done
        co_await s.send(element(acc, b.at(h.send_idx), type), send_cnt, type, dst);
        break;
      }
      co_await s.recv(element(acc, b.at(h.recv_idx), type), recv_cnt, type, dst);
      if (newrank > newdst) h.send_idx = h.recv_idx;
    }
  }
  if (me == root) copy_elements(acc, recvbuf, count, type);
}

CollTask allreduce_recursive_doubling(Schedule& s, void* recvbuf, std::size_t count,
                                      const Datatype& type) {
  const int p = s.size(), me = s.rank();
  if (count == 0 || p == 1) co_return;
  const bool commutative = s.op().commutative;
  // The partial result lives in scratch beside the received one, not in recvbuf: the steps
  // after the first run in whichever fiber delivers their message, where the owner's buffer (on
  // its stack, parked or cold in the cache) would be reached once per step; this way it is
  // reached once, at the end.
  void* tmp = s.scratch(2 * count, type);
  void* acc = element(tmp, static_cast<MPI_Aint>(count), type);
  copy_elements(recvbuf, acc, count, type);
  const int pof2 = pof2_floor(p), rem = p - pof2;
  // Fold the first 2*rem ranks pairwise so that a power of two remains.
  int newrank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      co_await s.send(acc, count, type, me + 1);
      newrank = -1;
    } else {
      co_await s.recv(tmp, count, type, me - 1);
      s.reduce(tmp, acc, count, type); // (me-1) op me
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  if (newrank != -1) {
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int newdst = newrank ^ mask;
      const int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
      co_await s.exchange(acc, count, type, dst, tmp, count, type, dst);
      if (commutative || dst < me) {
        s.reduce(tmp, acc, count, type); // tmp holds lower ranks
      } else {
        s.reduce(acc, tmp, count, type);
        std::swap(acc, tmp);
      }
    }
  }
  if (me < 2 * rem && me % 2 == 0) {
    co_await s.recv(recvbuf, count, type, me + 1);
    co_return;
  }
  s.copy_out(acc, recvbuf, count, type);
  if (me < 2 * rem) co_await s.send(acc, count, type, me - 1);
}

/// Rabenseifner's allreduce: reduce-scatter, then the reverse recursive-doubling allgather.
/// MPICH's fold: even ranks below 2*rem hand their data to the odd rank above them.
CollTask allreduce_rabenseifner(Schedule& s, void* recvbuf, std::size_t count,
                                const Datatype& type) {
  const int p = s.size(), me = s.rank();
  const int pof2 = pof2_floor(p), rem = p - pof2;
  void* tmp = s.scratch(count, type);
  int newrank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      co_await s.send(recvbuf, count, type, me + 1);
      newrank = -1;
    } else {
      co_await s.recv(tmp, count, type, me - 1);
      s.reduce(tmp, recvbuf, count, type);
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  if (newrank != -1) {
    const Blocks b(count, pof2);
    Halving h;
    co_await reduce_scatter_halving(s, recvbuf, tmp, b, type, newrank, pof2, rem, 1, h);
    for (int mask = pof2 / 2; mask > 0; mask >>= 1) {
      const int newdst = newrank ^ mask;
      const int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
      const auto [send_cnt, recv_cnt] = h.undo_step(b, newrank, newdst, mask, pof2);
      co_await s.exchange(element(recvbuf, b.at(h.send_idx), type), send_cnt, type, dst,
                          element(recvbuf, b.at(h.recv_idx), type), recv_cnt, type, dst);
      if (newrank > newdst) h.send_idx = h.recv_idx;
    }
  }
  if (me < 2 * rem) {
    if (me % 2)
      co_await s.send(recvbuf, count, type, me - 1);
    else
      co_await s.recv(recvbuf, count, type, me + 1);
  }
}

} // namespace

// The selectors are plain functions that hand over the chosen algorithm's coroutine: one frame
// fewer per collective (a blocked rank keeps its frames alive).

CollTask build_reduce(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                      const Datatype& type_in, int root) {
  const Datatype& type = s.keep(type_in);
  const bool predefined_op = !s.op().user_defined();
  if (count > 0 && count * type.size > thresholds::kReduceShort && predefined_op &&
      count >= static_cast<std::size_t>(pof2_floor(s.size())))
    return reduce_rabenseifner(s, sendbuf, recvbuf, count, type, root);
  return reduce_binomial(s, sendbuf, recvbuf, count, type, root);
}

CollTask build_allreduce(Schedule& s, const void* sendbuf, void* recvbuf, std::size_t count,
                         const Datatype& type_in) {
  const Datatype& type = s.keep(type_in);
  if (sendbuf != MPI_IN_PLACE) copy_elements(sendbuf, recvbuf, count, type);
  const bool predefined_op = !s.op().user_defined();
  if (count * type.size <= thresholds::kAllreduceShort || !predefined_op ||
      count < static_cast<std::size_t>(pof2_floor(s.size())))
    return allreduce_recursive_doubling(s, recvbuf, count, type);
  return allreduce_rabenseifner(s, recvbuf, count, type);
}

} // namespace mpilite
