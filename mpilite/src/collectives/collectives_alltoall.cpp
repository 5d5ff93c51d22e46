// MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw: one set of algorithms over what this rank sends
// to and receives from each peer.
#include <algorithm>
#include <vector>

#include "collective_thresholds.hpp"
#include "collectives.hpp"

namespace mpilite {
namespace {

const Datatype& bytes_type() {
  return *builtin_datatype(MPI_BYTE);
}

/// One direction of the exchange with one peer.
struct Part {
  void* buf = nullptr;
  std::size_t count = 0;
  const Datatype* type = nullptr;
  std::size_t bytes() const { return count * type->size; }
};
struct Parts {
  std::vector<Part> out, in; ///< by peer; `out` is unused in place
};

/// The part of `count` elements at `offset` bytes into `base` (no address for empty parts:
/// their buffers may be null).
Part part(const void* base, MPI_Aint offset, int count, const Datatype& type) {
  auto* at = const_cast<std::byte*>(static_cast<const std::byte*>(base));
  return {count > 0 ? at + offset : at, static_cast<std::size_t>(count), &type};
}

/// Copies what this rank sends itself into its own receive block.
void copy_self(const Schedule& s, const Parts& parts) {
  const auto me = static_cast<std::size_t>(s.rank());
  const Part& out = parts.out[me];
  const Part& in = parts.in[me];
  if (out.bytes() > 0) copy_typed(out.buf, out.count, *out.type, in.buf, in.count, *in.type);
}

/// In place: exchange with every other rank in increasing order, each block sent from and
/// replaced in the receive buffer (through a packed copy, as MPI_Sendrecv_replace does).
CollTask alltoall_replace(Schedule& s, const Parts& parts) {
  const int p = s.size(), me = s.rank();
  std::size_t largest = 0;
  for (const Part& in : parts.in)
    largest = std::max(largest, in.bytes());
  auto* packed = static_cast<std::byte*>(s.scratch(largest, bytes_type()));
  for (int peer = 0; peer < p; ++peer) {
    if (peer == me) continue;
    const Part& in = parts.in[static_cast<std::size_t>(peer)];
    pack(in.buf, in.count, *in.type, packed);
    co_await s.exchange(packed, in.bytes(), bytes_type(), peer, in.buf, in.count, *in.type, peer);
  }
}

/// Batches of `kAlltoallThrottle` peers: receives from me+i, sends to me-i, waited for together.
CollTask alltoall_batches(Schedule& s, const Parts& parts) {
  const int p = s.size(), me = s.rank();
  const int batch = thresholds::kAlltoallThrottle;
  copy_self(s, parts);
  for (int first = 0; first < p; first += batch) {
    const int n = std::min(batch, p - first);
    for (int i = 0; i < n; ++i) {
      const int peer = (me + i + first) % p;
      const Part& in = parts.in[static_cast<std::size_t>(peer)];
      if (peer != me && in.bytes() > 0) s.post_recv(in.buf, in.count, *in.type, peer);
    }
    for (int i = 0; i < n; ++i) {
      const int peer = (me - i - first + p) % p;
      const Part& out = parts.out[static_cast<std::size_t>(peer)];
      if (peer != me && out.bytes() > 0) s.post_send(out.buf, out.count, *out.type, peer);
    }
    co_await s.wait();
  }
}

/// p - 1 exchanges: with me XOR i on a power of two, else sending to me+i, receiving from me-i.
CollTask alltoall_pairwise(Schedule& s, const Parts& parts) {
  const int p = s.size(), me = s.rank();
  copy_self(s, parts);
  for (int i = 1; i < p; ++i) {
    const int dst = is_pof2(p) ? me ^ i : (me + i) % p;
    const int src = is_pof2(p) ? me ^ i : (me - i + p) % p;
    const Part& out = parts.out[static_cast<std::size_t>(dst)];
    const Part& in = parts.in[static_cast<std::size_t>(src)];
    co_await s.exchange(out.buf, out.count, *out.type, dst, in.buf, in.count, *in.type, src);
  }
}

/// Bruck: rotate, then in step k pass every block whose index has bit k set to rank + 2^k, then
/// rotate back and reverse. Blocks of `count` elements of `type`, in the receive buffer.
CollTask alltoall_bruck(Schedule& s, const void* sendbuf, std::size_t scount, const Datatype& stype,
                        void* recvbuf, std::size_t count, const Datatype& type) {
  const int p = s.size(), me = s.rank();
  const auto n = static_cast<MPI_Aint>(count);
  auto block = [n, &type](void* base, int i) { return element(base, n * i, type); };
  { // block i of the receive buffer: what goes to me + i
    const auto sn = static_cast<MPI_Aint>(scount);
    copy_typed(element(sendbuf, sn * me, stype), scount * static_cast<std::size_t>(p - me), stype,
               recvbuf, count * static_cast<std::size_t>(p - me), type);
    copy_typed(sendbuf, scount * static_cast<std::size_t>(me), stype, block(recvbuf, p - me),
               count * static_cast<std::size_t>(me), type);
  }
  const std::size_t block_bytes = count * type.size;
  const auto all_bytes = block_bytes * static_cast<std::size_t>(p);
  auto* out = static_cast<std::byte*>(s.scratch(all_bytes, bytes_type()));
  auto* in = static_cast<std::byte*>(s.scratch(all_bytes, bytes_type()));
  std::vector<int> moving;
  for (int bit = 1; bit < p; bit <<= 1) {
    moving.clear();
    for (int i = 1; i < p; ++i)
      if (i & bit) moving.push_back(i);
    for (std::size_t k = 0; k < moving.size(); ++k)
      pack(block(recvbuf, moving[k]), count, type, out + k * block_bytes);
    const std::size_t bytes = moving.size() * block_bytes;
    co_await s.exchange(out, bytes, bytes_type(), (me + bit) % p, in, bytes, bytes_type(),
                        (me - bit + p) % p);
    for (std::size_t k = 0; k < moving.size(); ++k)
      unpack(in + k * block_bytes, block_bytes, type, block(recvbuf, moving[k]));
  }
  // Block i now came from me - i: rotate by me + 1, then reverse.
  void* tmp = s.scratch(count * static_cast<std::size_t>(p), type);
  const auto up = static_cast<std::size_t>(me + 1);
  copy_elements(block(recvbuf, me + 1), tmp, count * (static_cast<std::size_t>(p) - up), type);
  copy_elements(recvbuf, block(tmp, p - me - 1), count * up, type);
  for (int i = 0; i < p; ++i)
    copy_elements(block(tmp, i), block(recvbuf, p - i - 1), count, type);
}

CollTask run_parts(Schedule& s, bool in_place, const Parts& parts) {
  if (s.size() == 1) {
    if (!in_place) copy_self(s, parts);
  } else if (in_place) {
    co_await alltoall_replace(s, parts);
  } else {
    co_await alltoall_batches(s, parts);
  }
}

} // namespace

CollTask build_alltoall(Schedule& s, const void* sendbuf, std::size_t scount,
                        const Datatype& stype_in, void* recvbuf, std::size_t rcount,
                        const Datatype& rtype_in) {
  using namespace thresholds;
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const int p = s.size();
  if (rcount == 0) co_return;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const std::size_t bytes = scount * stype.size;
  if (!in_place && p > 1 && bytes <= kAlltoallShort && p >= kAlltoallMinRanksBruck) {
    co_await alltoall_bruck(s, sendbuf, scount, stype, recvbuf, rcount, rtype);
    co_return;
  }
  Parts parts;
  for (int i = 0; i < p; ++i) {
    parts.in.push_back(part(recvbuf, rtype.extent * static_cast<MPI_Aint>(rcount) * i,
                            static_cast<int>(rcount), rtype));
    if (!in_place)
      parts.out.push_back(part(sendbuf, stype.extent * static_cast<MPI_Aint>(scount) * i,
                               static_cast<int>(scount), stype));
  }
  if (!in_place && p > 1 && bytes > kAlltoallMedium) {
    co_await alltoall_pairwise(s, parts);
    co_return;
  }
  co_await run_parts(s, in_place, parts);
}

CollTask build_alltoallv(Schedule& s, const void* sendbuf, const int* scounts, const int* sdispls,
                         const Datatype& stype_in, void* recvbuf, const int* rcounts,
                         const int* rdispls, const Datatype& rtype_in) {
  const Datatype& stype = s.keep(stype_in);
  const Datatype& rtype = s.keep(rtype_in);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Parts parts;
  for (int i = 0; i < s.size(); ++i) {
    parts.in.push_back(part(recvbuf, rtype.extent * rdispls[i], rcounts[i], rtype));
    if (!in_place) parts.out.push_back(part(sendbuf, stype.extent * sdispls[i], scounts[i], stype));
  }
  co_await run_parts(s, in_place, parts);
}

CollTask build_alltoallw(Schedule& s, const void* sendbuf, const int* scounts, const int* sdispls,
                         std::vector<const Datatype*> stypes, void* recvbuf, const int* rcounts,
                         const int* rdispls, std::vector<const Datatype*> rtypes) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Parts parts;
  for (int i = 0; i < s.size(); ++i) {
    parts.in.push_back(part(recvbuf, rdispls[i], rcounts[i], s.keep(*rtypes[i])));
    if (!in_place) parts.out.push_back(part(sendbuf, sdispls[i], scounts[i], s.keep(*stypes[i])));
  }
  co_await run_parts(s, in_place, parts);
}

} // namespace mpilite
