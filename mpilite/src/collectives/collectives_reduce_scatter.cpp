// MPI_Reduce_scatter and MPI_Reduce_scatter_block (the same with equal counts).
#include <algorithm>
#include <numeric>
#include <vector>

#include "collective_thresholds.hpp"
#include "collectives.hpp"

namespace mpilite {
namespace {

const Datatype& bytes_type() {
  return *builtin_datatype(MPI_BYTE);
}

/// Block boundaries: block i is elements [disp[i], disp[i+1]) of the full vector.
struct Layout {
  std::vector<std::size_t> disp;
  explicit Layout(const std::vector<std::size_t>& counts) : disp(counts.size() + 1) {
    std::partial_sum(counts.begin(), counts.end(), disp.begin() + 1);
  }
  std::size_t total() const { return disp.back(); }
  /// Start of block i, i clipped to the number of blocks (i may be past the end).
  std::size_t at(int i) const {
    return disp[std::min(static_cast<std::size_t>(i), disp.size() - 1)];
  }
  std::size_t count(int i) const { return at(i + 1) - at(i); }
};

template <class T> void* at(T* base, std::size_t index, const Datatype& type) {
  return const_cast<std::byte*>(element(base, static_cast<MPI_Aint>(index), type));
}

/// Commutative ops: halve the vector pof2 ways (after MPICH's fold of the first 2*rem ranks, in
/// which even ranks hand everything to the odd rank above them, which then also computes the
/// even rank's block).
CollTask recursive_halving(Schedule& s, const void* input, void* recvbuf, const Layout& l,
                           const Datatype& type) {
  const int p = s.size(), me = s.rank();
  const int pof2 = pof2_floor(p), rem = p - pof2;
  void* results = s.scratch(l.total(), type);
  void* incoming = s.scratch(l.total(), type);
  copy_elements(input, results, l.total(), type);
  int newrank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      co_await s.send(results, l.total(), type, me + 1);
      newrank = -1;
    } else {
      co_await s.recv(incoming, l.total(), type, me - 1);
      s.reduce(incoming, results, l.total(), type);
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  if (newrank != -1) {
    // Blocks of the new ranks: a folding odd rank also holds its even neighbour's block.
    std::vector<std::size_t> newdisp(static_cast<std::size_t>(pof2) + 1);
    for (int i = 0; i < pof2; ++i) {
      const int old = i < rem ? i * 2 + 1 : i + rem;
      newdisp[static_cast<std::size_t>(i) + 1] = l.at(old + 1);
    }
    auto span = [&](int from, int to) {
      return newdisp[static_cast<std::size_t>(to)] - newdisp[static_cast<std::size_t>(from)];
    };
    auto pos = [&](void* base, int i) {
      return at(base, newdisp[static_cast<std::size_t>(i)], type);
    };
    int send_idx = 0, recv_idx = 0, last_idx = pof2;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
      const int newdst = newrank ^ mask;
      const int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
      std::size_t send_cnt, recv_cnt;
      if (newrank < newdst) {
        send_idx = recv_idx + mask;
        send_cnt = span(send_idx, last_idx);
        recv_cnt = span(recv_idx, send_idx);
      } else {
        recv_idx = send_idx + mask;
        send_cnt = span(send_idx, recv_idx);
        recv_cnt = span(recv_idx, last_idx);
      }
      if (send_cnt) s.post_send(pos(results, send_idx), send_cnt, type, dst);
      if (recv_cnt) s.post_recv(pos(incoming, recv_idx), recv_cnt, type, dst);
      co_await s.wait();
      s.reduce(pos(incoming, recv_idx), pos(results, recv_idx), recv_cnt, type);
      send_idx = recv_idx;
      last_idx = recv_idx + mask;
    }
    copy_elements(at(results, l.at(me), type), recvbuf, l.count(me), type);
  }
  if (me < 2 * rem) {
    if (me % 2) {
      if (l.count(me - 1))
        co_await s.send(at(results, l.at(me - 1), type), l.count(me - 1), type, me - 1);
    } else if (l.count(me)) {
      co_await s.recv(recvbuf, l.count(me), type, me + 1);
    }
  }
}

/// Long vectors, commutative ops: p - 1 exchanges, each sending one rank its block.
CollTask pairwise(Schedule& s, const void* input, void* recvbuf, const Layout& l,
                  const Datatype& type) {
  const int p = s.size(), me = s.rank();
  void* result = s.scratch(l.count(me), type);
  void* incoming = s.scratch(l.count(me), type);
  copy_elements(at(input, l.at(me), type), result, l.count(me), type);
  for (int i = 1; i < p; ++i) {
    const int src = (me - i + p) % p, dst = (me + i) % p;
    co_await s.exchange(at(input, l.at(dst), type), l.count(dst), type, dst, incoming, l.count(me),
                        type, src);
    s.reduce(incoming, result, l.count(me), type);
  }
  copy_elements(result, recvbuf, l.count(me), type);
}

/// Non-commutative ops on a power of two with equal blocks: Traff's butterfly. Blocks start in
/// bit-reversed order, so that each step halves a contiguous range.
CollTask butterfly(Schedule& s, const void* input, void* recvbuf, const Layout& l,
                   const Datatype& type) {
  const int p = s.size(), me = s.rank();
  int log2p = 0;
  while ((1 << log2p) < p)
    ++log2p;
  const std::size_t block = l.count(0);
  void* buf[2] = {s.scratch(l.total(), type), s.scratch(l.total(), type)};
  for (int i = 0; i < p; ++i) {
    int mirror = 0;
    for (int b = 0; b < log2p; ++b)
      if (i & (1 << b)) mirror |= 1 << (log2p - 1 - b);
    copy_elements(at(input, l.at(i), type),
                  at(buf[0], static_cast<std::size_t>(mirror) * block, type), block, type);
  }
  int inout = 0; // which buffer holds the running result
  std::size_t send_offset = 0, recv_offset = 0, size = l.total();
  for (int k = 0; k < log2p; ++k) {
    void* in = buf[1 - inout];
    void* out = buf[inout];
    const int peer = me ^ (1 << k);
    size /= 2;
    if (me > peer)
      recv_offset += size; // higher rank: keep the top half
    else
      send_offset += size;
    co_await s.exchange(at(out, send_offset, type), size, type, peer, at(in, recv_offset, type),
                        size, type, peer);
    if (me > peer) { // received lower ranks: in op out
      s.reduce(at(in, recv_offset, type), at(out, recv_offset, type), size, type);
    } else { // out op in, which becomes the running result
      s.reduce(at(out, recv_offset, type), at(in, recv_offset, type), size, type);
      inout = 1 - inout;
    }
    send_offset = recv_offset;
  }
  copy_elements(at(buf[inout], recv_offset, type), recvbuf, size, type);
}

/// Non-commutative ops otherwise: recursive doubling, each step exchanging every block outside
/// the two subtrees' own, with MPICH's forwarding inside subtrees whose partners do not exist.
CollTask recursive_doubling(Schedule& s, const void* input, void* recvbuf, const Layout& l,
                            const Datatype& type) {
  const int p = s.size(), me = s.rank();
  const bool commutative = s.op().commutative;
  void* results = s.scratch(l.total(), type);
  void* incoming = s.scratch(l.total(), type);
  const std::size_t packed_bytes = l.total() * type.size;
  auto* send_packed = static_cast<std::byte*>(s.scratch(packed_bytes, bytes_type()));
  auto* recv_packed = static_cast<std::byte*>(s.scratch(packed_bytes, bytes_type()));
  copy_elements(input, results, l.total(), type);
  /// Everything but the blocks of the subtree [root, root + size): two runs of elements.
  struct Runs {
    std::size_t first, second_at, second;
    std::size_t elements() const { return first + second; }
  };
  auto outside = [&](int root, int size) {
    const std::size_t end = l.at(root + size);
    return Runs{l.at(root), end, l.total() - end};
  };
  for (int mask = 1, i = 0; mask < p; mask <<= 1, ++i) {
    const int dst = me ^ mask;
    const int dst_tree = (dst >> i) << i, my_tree = (me >> i) << i;
    const Runs out = outside(my_tree, mask), in = outside(dst_tree, mask);
    bool received = false;
    if (dst < p) {
      pack(results, out.first, type, send_packed);
      pack(at(results, out.second_at, type), out.second, type, send_packed + out.first * type.size);
      co_await s.exchange(send_packed, out.elements() * type.size, bytes_type(), dst, recv_packed,
                          in.elements() * type.size, bytes_type(), dst);
      received = true;
    }
    if (dst_tree + mask > p) { // forward what came from the missing ranks' subtree
      const int completed = p - my_tree - mask;
      int k = 0;
      for (int j = mask; j > 1; j >>= 1)
        ++k;
      for (int tmp_mask = mask >> 1; tmp_mask > 0; tmp_mask >>= 1, --k) {
        const int peer = me ^ tmp_mask;
        const int tree_root = (me >> k) << k;
        if (peer > me && me < tree_root + completed && peer >= tree_root + completed) {
          co_await s.send(recv_packed, in.elements() * type.size, bytes_type(), peer);
        } else if (peer < me && peer < tree_root + completed && me >= tree_root + completed) {
          co_await s.recv(recv_packed, in.elements() * type.size, bytes_type(), peer);
          received = true;
        }
      }
    }
    if (!received) continue;
    unpack(recv_packed, in.first * type.size, type, incoming);
    unpack(recv_packed + in.first * type.size, in.second * type.size, type,
           at(incoming, in.second_at, type));
    if (commutative || dst_tree < my_tree) { // incoming holds lower ranks
      s.reduce(incoming, results, in.first, type);
      s.reduce(at(incoming, in.second_at, type), at(results, in.second_at, type), in.second, type);
    } else {
      s.reduce(results, incoming, in.first, type);
      s.reduce(at(results, in.second_at, type), at(incoming, in.second_at, type), in.second, type);
      copy_elements(incoming, results, in.first, type);
      copy_elements(at(incoming, in.second_at, type), at(results, in.second_at, type), in.second,
                    type);
    }
  }
  copy_elements(at(results, l.at(me), type), recvbuf, l.count(me), type);
}

} // namespace

CollTask build_reduce_scatter(Schedule& s, const void* sendbuf, void* recvbuf,
                              std::vector<std::size_t> counts, const Datatype& type_in) {
  using namespace thresholds;
  const Datatype& type = s.keep(type_in);
  const Layout l(counts);
  if (l.total() == 0) co_return;
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const bool equal =
      std::all_of(counts.begin(), counts.end(), [&](std::size_t c) { return c == counts.front(); });
  if (s.size() == 1)
    copy_elements(input, recvbuf, l.total(), type);
  else if (s.op().commutative && l.total() * type.size < kReduceScatterLong)
    co_await recursive_halving(s, input, recvbuf, l, type);
  else if (s.op().commutative)
    co_await pairwise(s, input, recvbuf, l, type);
  else if (is_pof2(s.size()) && equal)
    co_await butterfly(s, input, recvbuf, l, type);
  else
    co_await recursive_doubling(s, input, recvbuf, l, type);
}

} // namespace mpilite
