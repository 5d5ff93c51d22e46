#include "collectives.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "p2p.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

// Tags of the collective context; collectives on one communicator run in the same order
// everywhere, and non-overtaking keeps consecutive ones apart.
enum CollTag { kBarrierTag = 1, kBcastTag, kReduceTag, kAllreduceTag };

/// A scratch buffer for `count` elements of `type`, laid out as the user's buffers are: it
/// spans from the lowest to the highest byte of data, whatever the signs of the lower bound and
/// the extent. It also covers [0, extent) of each element: the MINLOC/MAXLOC kernels copy whole
/// C structs, padding included (MPI_DOUBLE_INT: 12 bytes of data, 16 of struct).
class TypedBuffer {
public:
  TypedBuffer(std::size_t count, const Datatype& type) {
    if (count == 0) return;
    const MPI_Aint reps = static_cast<MPI_Aint>(count - 1) * type.extent;
    const MPI_Aint lo = std::min<MPI_Aint>(type.true_lb, 0) + std::min<MPI_Aint>(reps, 0);
    const MPI_Aint hi =
        std::max(type.true_lb + type.true_extent, type.extent) + std::max<MPI_Aint>(reps, 0);
    store_.resize(static_cast<std::size_t>(hi - lo));
    origin_ = -lo;
  }
  void* get() { return store_.data() + origin_; }

private:
  std::vector<std::byte> store_;
  MPI_Aint origin_ = 0; ///< offset of the buffer's origin (displacement 0) in the store
};

void copy_elements(const void* from, void* to, std::size_t count, const Datatype& type) {
  if (from == to || count == 0) return;
  if (type.contiguous()) {
    std::memcpy(to, from, count * type.size);
    return;
  }
  std::vector<std::byte> packed(count * type.size);
  pack(from, count, type, packed.data());
  unpack(packed.data(), packed.size(), type, to);
}

void send(World& w, Rank& r, const void* buf, std::size_t count, const Datatype& type, int dest,
          int tag, const Comm& c) {
  Request* q = start_send(w, r, SendMode::Standard, buf, count, type, dest, tag, c.coll_context());
  wait_all(w, r, &q, 1);
  w.free_request(q);
}

void recv(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type, int source,
          int tag, const Comm& c) {
  Request* q = start_receive(w, r, buf, count, type, source, tag, c.coll_context(), c);
  wait_all(w, r, &q, 1);
  w.free_request(q);
}

int exchange(World& w, Rank& r, const void* sbuf, void* rbuf, std::size_t count,
             const Datatype& type, int peer, int tag, const Comm& c) {
  return send_receive(w, r, sbuf, count, type, peer, tag, rbuf, count, type, peer, tag,
                      c.coll_context(), c, MPI_STATUS_IGNORE);
}

} // namespace

void barrier(World& w, Rank& r, const Comm& c) {
  const int p = c.size;
  const int me = c.rank_of(r.id);
  const Datatype& byte = *builtin_datatype(MPI_BYTE);
  for (int k = 1; k < p; k <<= 1) {
    const int to = c.world_of((me + k) % p, r.id);
    const int from = c.world_of((me - k + p) % p, r.id);
    send_receive(w, r, nullptr, 0, byte, to, kBarrierTag, nullptr, 0, byte, from, kBarrierTag,
                 c.coll_context(), c, MPI_STATUS_IGNORE);
  }
}

void bcast(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type, int root,
           const Comm& c) {
  const int p = c.size;
  const int rel = (c.rank_of(r.id) - root + p) % p;
  auto world = [&](int relative) { return c.world_of((relative + root) % p, r.id); };
  int mask = 1;
  for (; mask < p; mask <<= 1)
    if (rel & mask) {
      recv(w, r, buf, count, type, world(rel - mask), kBcastTag, c);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < p) send(w, r, buf, count, type, world(rel + mask), kBcastTag, c);
}

int reduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
           const Datatype& type, const Op& op, int root, const Comm& c) {
  const int p = c.size;
  const int me = c.rank_of(r.id);
  if (count == 0) return MPI_SUCCESS;
  // Non-commutative ops reduce toward rank 0 so that subtrees are combined in rank order.
  const int tree_root = op.commutative ? root : 0;
  TypedBuffer acc_store(count, type), tmp_store(count, type);
  void* acc = acc_store.get();
  void* tmp = tmp_store.get();
  copy_elements(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, acc, count, type);
  const int rel = (me - tree_root + p) % p;
  auto world = [&](int relative) { return c.world_of((relative + tree_root) % p, r.id); };
  int error = MPI_SUCCESS;
  for (int mask = 1; mask < p; mask <<= 1) {
    if (rel & mask) {
      send(w, r, acc, count, type, world(rel & ~mask), kReduceTag, c);
      break;
    }
    if ((rel | mask) >= p) continue;
    recv(w, r, tmp, count, type, world(rel | mask), kReduceTag, c);
    if (op.commutative) {
      error = apply_op(op, type, tmp, acc, count);
    } else { // acc holds lower ranks: acc op tmp
      error = apply_op(op, type, acc, tmp, count);
      std::swap(acc, tmp);
    }
  }
  if (tree_root != root) {
    if (me == tree_root) send(w, r, acc, count, type, c.world_of(root, r.id), kReduceTag, c);
    if (me == root) recv(w, r, recvbuf, count, type, c.world_of(tree_root, r.id), kReduceTag, c);
  } else if (me == root) {
    copy_elements(acc, recvbuf, count, type);
  }
  return error;
}

int allreduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
              const Datatype& type, const Op& op, const Comm& c) {
  const int p = c.size;
  const int me = c.rank_of(r.id);
  if (sendbuf != MPI_IN_PLACE) copy_elements(sendbuf, recvbuf, count, type);
  if (count == 0 || p == 1) return MPI_SUCCESS;
  TypedBuffer tmp_store(count, type);
  void* tmp = tmp_store.get();
  int pof2 = 1;
  while (pof2 * 2 <= p)
    pof2 *= 2;
  const int rem = p - pof2;
  int error = MPI_SUCCESS;
  // Fold the first 2*rem ranks pairwise so that a power of two remains.
  int newrank;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      send(w, r, recvbuf, count, type, c.world_of(me + 1, r.id), kAllreduceTag, c);
      newrank = -1;
    } else {
      recv(w, r, tmp, count, type, c.world_of(me - 1, r.id), kAllreduceTag, c);
      error = apply_op(op, type, tmp, recvbuf, count); // (me-1) op me
      newrank = me / 2;
    }
  } else {
    newrank = me - rem;
  }
  if (newrank != -1) {
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int newdst = newrank ^ mask;
      const int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
      exchange(w, r, recvbuf, tmp, count, type, c.world_of(dst, r.id), kAllreduceTag, c);
      if (op.commutative || dst < me) {
        error = apply_op(op, type, tmp, recvbuf, count); // tmp holds lower ranks
      } else {
        error = apply_op(op, type, recvbuf, tmp, count);
        copy_elements(tmp, recvbuf, count, type);
      }
    }
  }
  if (me < 2 * rem) {
    if (me % 2)
      send(w, r, recvbuf, count, type, c.world_of(me - 1, r.id), kAllreduceTag, c);
    else
      recv(w, r, recvbuf, count, type, c.world_of(me + 1, r.id), kAllreduceTag, c);
  }
  return error;
}

} // namespace mpilite
