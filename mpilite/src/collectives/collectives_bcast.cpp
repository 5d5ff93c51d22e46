// MPI_Barrier and MPI_Bcast.
#include <algorithm>

#include "collective_thresholds.hpp"
#include "collectives.hpp"

namespace mpilite {
namespace {

const Datatype& bytes_type() {
  return *builtin_datatype(MPI_BYTE);
}

/// Ranks relative to a root and back.
struct Rooted {
  int p, root;
  int rel(int rank) const { return (rank - root + p) % p; }
  int abs(int relative) const { return (relative + root) % p; }
};

CollTask bcast_binomial(Schedule& s, void* buf, std::size_t count, const Datatype& type, int root) {
  const Rooted t{s.size(), root};
  const int rel = t.rel(s.rank());
  int mask = 1;
  for (; mask < t.p; mask <<= 1)
    if (rel & mask) {
      co_await s.recv(buf, count, type, t.abs(rel - mask));
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < t.p) co_await s.send(buf, count, type, t.abs(rel + mask));
}

/// The bytes of a long broadcast cut into p pieces of `piece` bytes (ceiling division, so the
/// last pieces may be short or empty); piece k belongs to relative rank k.
struct Pieces {
  std::byte* data;
  std::size_t total, piece;
  int p;
  /// Offset of the start of piece k (k may be p: the end).
  std::size_t offset(long k) const { return std::min(total, static_cast<std::size_t>(k) * piece); }
  std::size_t bytes(long from, long to) const { return offset(to) - offset(from); }
};

/// Binomial scatter of the pieces from the root (MPICH's scatter for bcast): each relative rank
/// ends with its own piece, having passed on its subtree's.
CollTask scatter_pieces(Schedule& s, const Pieces& d, int root) {
  const Rooted t{d.p, root};
  const int rel = t.rel(s.rank());
  const Datatype& byte = bytes_type();
  long end = d.p; // pieces [rel, end) held
  int mask = 1;
  for (; mask < d.p; mask <<= 1)
    if (rel & mask) {
      end = std::min(d.p, rel + mask);
      if (d.bytes(rel, end) > 0)
        co_await s.recv(d.data + d.offset(rel), d.bytes(rel, end), byte, t.abs(rel - mask));
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    const int child = rel + mask;
    if (child >= d.p) continue;
    if (d.bytes(child, end) > 0)
      co_await s.send(d.data + d.offset(child), d.bytes(child, end), byte, t.abs(child));
    end = std::min<long>(end, child);
  }
}

/// Recursive-doubling allgather of the pieces (power-of-two sizes only).
CollTask allgather_pieces_doubling(Schedule& s, const Pieces& d, int root) {
  const Rooted t{d.p, root};
  const int rel = t.rel(s.rank());
  const Datatype& byte = bytes_type();
  for (int mask = 1, i = 0; mask < d.p; mask <<= 1, ++i) {
    const int rdst = rel ^ mask;
    const int dst_tree = (rdst >> i) << i;
    const int my_tree = (rel >> i) << i;
    co_await s.exchange(d.data + d.offset(my_tree), d.bytes(my_tree, my_tree + mask), byte,
                        t.abs(rdst), d.data + d.offset(dst_tree),
                        d.bytes(dst_tree, dst_tree + mask), byte, t.abs(rdst));
  }
}

/// Ring allgather of the pieces: p - 1 steps, each passing one piece to the right.
CollTask allgather_pieces_ring(Schedule& s, const Pieces& d, int root) {
  const Rooted t{d.p, root};
  const int me = s.rank();
  const int left = (me - 1 + d.p) % d.p, right = (me + 1) % d.p;
  const Datatype& byte = bytes_type();
  int j = me, jnext = left;
  for (int i = 1; i < d.p; ++i) {
    const int out = t.rel(j), in = t.rel(jnext);
    co_await s.exchange(d.data + d.offset(out), d.bytes(out, out + 1), byte, right,
                        d.data + d.offset(in), d.bytes(in, in + 1), byte, left);
    j = jnext;
    jnext = (jnext - 1 + d.p) % d.p;
  }
}

} // namespace

CollTask build_barrier(Schedule& s) {
  const int p = s.size(), me = s.rank();
  const Datatype& byte = bytes_type();
  for (int k = 1; k < p; k <<= 1)
    co_await s.exchange(nullptr, 0, byte, (me + k) % p, nullptr, 0, byte, (me - k + p) % p);
}

CollTask build_bcast(Schedule& s, void* buf, std::size_t count, const Datatype& type_in, int root) {
  using namespace thresholds;
  const Datatype& type = s.keep(type_in);
  const int p = s.size();
  const std::size_t nbytes = count * type.size;
  if (nbytes == 0 || p == 1) co_return;
  if (nbytes < kBcastShort || p < kBcastMinRanks) {
    co_await bcast_binomial(s, buf, count, type, root);
    co_return;
  }
  // Long messages move as bytes: the user's buffer itself when it is contiguous.
  const bool packed = !type.contiguous();
  const bool is_root = s.rank() == root;
  auto* data = static_cast<std::byte*>(packed ? s.scratch(nbytes, bytes_type()) : buf);
  if (packed && is_root) pack(buf, count, type, data);
  const Pieces pieces{data, nbytes, (nbytes + static_cast<std::size_t>(p) - 1) / p, p};
  co_await scatter_pieces(s, pieces, root);
  if (nbytes < kBcastLong && is_pof2(p))
    co_await allgather_pieces_doubling(s, pieces, root);
  else
    co_await allgather_pieces_ring(s, pieces, root);
  if (packed && !is_root) unpack(data, nbytes, type, buf);
}

} // namespace mpilite
